// Drives agentcore through the real Agent SDK: node features.mjs SDK_ENTRY CLI CWD.
// An in-process MCP server (createSdkMcpServer) with one tool, add, whose
// handler switches the model (query.setModel) before it answers; a
// PreToolUse hook callback that blocks Bash; partial messages on. Every
// message, tool call and hook call is printed as one JSON line.
import { createRequire } from 'node:module';
const [sdkEntry, cli, cwd] = process.argv.slice(2);
const { query, createSdkMcpServer, tool } = await import(sdkEntry);
const { z } = await import(createRequire(sdkEntry).resolve('zod'));
const log = (kind, v) => console.log(JSON.stringify({ kind, ...v }));
let q;
const calc = createSdkMcpServer({
  name: 'calc',
  version: '1.0.0',
  tools: [
    tool('add', 'Add two numbers', { a: z.number(), b: z.number() }, async ({ a, b }) => {
      log('tool', { name: 'add', a, b });
      await q.setModel('claude-opus-4-1');
      return { content: [{ type: 'text', text: `the sum is ${a + b}` }] };
    }),
  ],
});
q = query({
  prompt: 'add 2 and 3, then touch a file',
  options: {
    cwd,
    pathToClaudeCodeExecutable: cli,
    mcpServers: { calc },
    allowedTools: ['mcp__calc__add', 'Bash'],
    includePartialMessages: true,
    hooks: {
      PreToolUse: [{
        matcher: 'Bash',
        hooks: [async (input) => {
          log('hook', { event: input.hook_event_name, tool: input.tool_name, input: input.tool_input });
          return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'The host blocks Bash here.' } };
        }],
      }],
    },
  },
});
const timer = setTimeout(() => { log('timeout', {}); process.exit(2); }, 60000);
for await (const m of q) log('message', { message: m });
clearTimeout(timer);

// Calls a tool of an in-process MCP server through the real Agent SDK:
// node mcp_tool.mjs SDK_ENTRY CLI CWD. The server (createSdkMcpServer)
// has one tool, add; every message and every call of its handler is
// printed as one JSON line.
import { createRequire } from 'node:module';
const [sdkEntry, cli, cwd] = process.argv.slice(2);
const { query, createSdkMcpServer, tool } = await import(sdkEntry);
const { z } = await import(createRequire(sdkEntry).resolve('zod'));
const log = (kind, v) => console.log(JSON.stringify({ kind, ...v }));
const calc = createSdkMcpServer({
  name: 'calc',
  version: '1.0.0',
  tools: [
    tool('add', 'Add two numbers', { a: z.number(), b: z.number() }, async ({ a, b }) => {
      log('tool', { name: 'add', input: { a, b } });
      return { content: [{ type: 'text', text: `the sum is ${a + b}` }] };
    }),
  ],
});
const q = query({
  prompt: 'add 2 and 3',
  options: { cwd, pathToClaudeCodeExecutable: cli, mcpServers: { calc }, allowedTools: ['mcp__calc__add'] },
});
const timer = setTimeout(() => { log('timeout', {}); process.exit(2); }, 60000);
for await (const m of q) log('message', { message: m });
clearTimeout(timer);

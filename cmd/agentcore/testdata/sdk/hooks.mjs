// Runs PreToolUse hook callbacks through the real Agent SDK:
// node hooks.mjs SDK_ENTRY CLI CWD. The Bash hook allows the call with a
// changed command (updatedInput); the Write hook denies it. Every
// message and every hook call is printed as one JSON line.
const [sdkEntry, cli, cwd] = process.argv.slice(2);
const { query } = await import(sdkEntry);
const log = (kind, v) => console.log(JSON.stringify({ kind, ...v }));
const hook = (decide) => async (input) => {
  log('hook', { event: input.hook_event_name, tool: input.tool_name, input: input.tool_input });
  return { hookSpecificOutput: { hookEventName: 'PreToolUse', ...decide(input.tool_input) } };
};
const q = query({
  prompt: 'make the files',
  options: {
    cwd,
    pathToClaudeCodeExecutable: cli,
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [hook((input) => ({ permissionDecision: 'allow', permissionDecisionReason: 'The host rewrote it.', updatedInput: { ...input, command: 'touch hooked.txt' } }))] },
        { matcher: 'Write', hooks: [hook(() => ({ permissionDecision: 'deny', permissionDecisionReason: 'The host blocks Write here.' }))] },
      ],
    },
  },
});
const timer = setTimeout(() => { log('timeout', {}); process.exit(2); }, 60000);
for await (const m of q) log('message', { message: m });
clearTimeout(timer);

// Defers a call from a PreToolUse hook callback through the real Agent
// SDK: node defer.mjs SDK_ENTRY CLI CWD. The first query's Bash call is
// deferred (the query ends with the deferred call); the second resumes
// that session with a new prompt, and the hook allows the call. Every
// message and every hook call is printed as one JSON line, with the query
// it belongs to.
const [sdkEntry, cli, cwd] = process.argv.slice(2);
const { query } = await import(sdkEntry);
const log = (kind, v) => console.log(JSON.stringify({ kind, ...v }));
let decision = 'defer';
const hooks = {
  PreToolUse: [{
    matcher: 'Bash', hooks: [async (input) => {
      log('hook', { event: input.hook_event_name, tool: input.tool_name, input: input.tool_input, decision });
      return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: 'The host decides later.' } };
    }],
  }],
};
const timer = setTimeout(() => { log('timeout', {}); process.exit(2); }, 60000);
let sessionId;
for await (const m of query({ prompt: 'make the file', options: { cwd, pathToClaudeCodeExecutable: cli, hooks } })) {
  log('first', { message: m });
  if (m.type === 'result') sessionId = m.session_id;
}
decision = 'allow';
for await (const m of query({ prompt: 'go on', options: { cwd, pathToClaudeCodeExecutable: cli, hooks, resume: sessionId } })) {
  log('second', { message: m });
}
clearTimeout(timer);

// Drives agentcore through the real Agent SDK: node resume.mjs SDK_ENTRY CLI CWD.
// A first query, then a second one with resume: the first's session_id.
// Every message is printed as one JSON line, with the query it belongs to.
const [sdkEntry, cli, cwd] = process.argv.slice(2);
const { query } = await import(sdkEntry);
const log = (kind, v) => console.log(JSON.stringify({ kind, ...v }));
const timer = setTimeout(() => { log('timeout', {}); process.exit(2); }, 60000);
let sessionId;
for await (const m of query({ prompt: 'remember the number 42', options: { cwd, pathToClaudeCodeExecutable: cli } })) {
  log('first', { message: m });
  if (m.type === 'result') sessionId = m.session_id;
}
for await (const m of query({ prompt: 'which number was it?', options: { cwd, pathToClaudeCodeExecutable: cli, resume: sessionId } })) {
  log('second', { message: m });
}
clearTimeout(timer);

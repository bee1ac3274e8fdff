// Drives agentcore through the real Agent SDK: node structured.mjs SDK_ENTRY CLI CWD.
// One query with outputFormat json_schema; every message is printed as one
// JSON line.
const [sdkEntry, cli, cwd] = process.argv.slice(2);
const { query } = await import(sdkEntry);
const log = (kind, v) => console.log(JSON.stringify({ kind, ...v }));
const timer = setTimeout(() => { log('timeout', {}); process.exit(2); }, 60000);
const schema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
for await (const m of query({ prompt: 'name the module', options: { cwd, pathToClaudeCodeExecutable: cli, outputFormat: { type: 'json_schema', schema } } })) {
  log('message', { message: m });
}
clearTimeout(timer);

// Runs a sub-agent the host defines through the real Agent SDK:
// node subagent.mjs SDK_ENTRY CLI CWD. The agents option defines
// "counter", which may use Bash; every message is printed as one JSON
// line.
const [sdkEntry, cli, cwd] = process.argv.slice(2);
const { query } = await import(sdkEntry);
const log = (kind, v) => console.log(JSON.stringify({ kind, ...v }));
const q = query({
  prompt: 'ask the counter',
  options: {
    cwd,
    pathToClaudeCodeExecutable: cli,
    allowedTools: ['Agent', 'Task', 'Bash'],
    agents: {
      counter: { description: 'Counts things in the directory', prompt: 'You are the counter sub-agent.', tools: ['Bash'] },
    },
  },
});
const timer = setTimeout(() => { log('timeout', {}); process.exit(2); }, 60000);
for await (const m of q) log('message', { message: m });
clearTimeout(timer);

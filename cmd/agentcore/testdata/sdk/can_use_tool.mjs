// Drives agentcore through the real Agent SDK: node can_use_tool.mjs SDK_ENTRY CLI CWD.
// canUseTool allows Bash with a changed command and denies Write; every
// message and every canUseTool call is printed as one JSON line.
const [sdkEntry, cli, cwd] = process.argv.slice(2);
const { query } = await import(sdkEntry);
const log = (kind, v) => console.log(JSON.stringify({ kind, ...v }));
const q = query({
  prompt: 'make the file',
  options: {
    cwd,
    pathToClaudeCodeExecutable: cli,
    canUseTool: async (name, input) => {
      log('can_use_tool', { name, input });
      if (name === 'Bash') return { behavior: 'allow', updatedInput: { ...input, command: 'touch changed.txt' } };
      return { behavior: 'deny', message: 'The host does not allow Write here.' };
    },
  },
});
const timer = setTimeout(() => { log('timeout', {}); process.exit(2); }, 60000);
for await (const m of q) log('message', { message: m });
clearTimeout(timer);

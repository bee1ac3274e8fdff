// Interrupts a running query through the real Agent SDK:
// node interrupt.mjs SDK_ENTRY CLI CWD. The prompt is a stream (interrupt
// needs the streaming input mode); once the model's Bash call has been
// sent, q.interrupt() is called. Every message is printed as a JSON line,
// then {"kind":"done","ms":…} with the time from interrupt() to the end.
const [sdkEntry, cli, cwd] = process.argv.slice(2);
const { query } = await import(sdkEntry);
const log = (kind, v) => console.log(JSON.stringify({ kind, ...v }));
let finish;
const open = new Promise((r) => { finish = r; });
async function* prompt() {
  yield { type: 'user', message: { role: 'user', content: 'wait a while' }, parent_tool_use_id: null, session_id: '' };
  await open; // the input stays open until the query ends
}
const q = query({ prompt: prompt(), options: { cwd, pathToClaudeCodeExecutable: cli, allowedTools: ['Bash'] } });
const timer = setTimeout(() => { log('timeout', {}); process.exit(2); }, 60000);
let interruptedAt = null;
for await (const m of q) {
  log('message', { message: m });
  const calls = m.type === 'assistant' ? m.message.content.filter((b) => b.type === 'tool_use') : [];
  if (calls.length > 0 && interruptedAt === null) {
    // Let the call start before interrupting it.
    await new Promise((r) => setTimeout(r, 500));
    interruptedAt = performance.now();
    await q.interrupt();
    log('interrupted', {});
  }
  if (m.type === 'result') break;
}
finish();
clearTimeout(timer);
log('done', { ms: interruptedAt === null ? -1 : performance.now() - interruptedAt });
process.exit(0);

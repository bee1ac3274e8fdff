// The Agent SDK start-up benchmark: from the SDK's query() call to the
// first POST /v1/messages at a fake Messages API on loopback, for each
// CLI given (agentcore, Claude Code), runs interleaved so machine noise
// hits both alike.
//
//	node first_request.mjs SDK_ENTRY RUNS NAME=CLI [NAME=CLI...]
//
// Each run gets an empty HOME and working directory; the query is a
// string prompt with the SDK's defaults and model claude-sonnet-4-5, and
// is read to its end (the fake answers every request with "hello").
// Prints one JSON object: per name, the milliseconds of every run.
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [sdkEntry, runsArg, ...clis] = process.argv.slice(2);
const { query } = await import(sdkEntry);
const runs = Number(runsArg);

const events = [
  ['message_start', { message: { id: 'm', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } }],
  ['content_block_start', { index: 0, content_block: { type: 'text', text: '' } }],
  ['content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'hello' } }],
  ['content_block_stop', { index: 0 }],
  ['message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } }],
  ['message_stop', {}],
];
const answer = events.map(([t, o]) => `event: ${t}\ndata: ${JSON.stringify({ type: t, ...o })}\n\n`).join('');

let firstAt = null; // performance.now() of this run's first model request
const server = http.createServer((req, res) => {
  const at = performance.now();
  const model = req.method === 'POST' && req.url.split('?')[0] === '/v1/messages';
  if (model && firstAt === null) firstAt = at;
  req.resume();
  req.on('end', () => {
    if (!model) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"type":"error","error":{"type":"not_found_error","message":"not here"}}');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(answer);
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const baseURL = `http://127.0.0.1:${server.address().port}`;

async function once(cli) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sdkbench-home-'));
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'sdkbench-cwd-'));
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('ANTHROPIC_') && !k.startsWith('AGENTCORE_') && !k.startsWith('CLAUDE')) env[k] = v;
  }
  Object.assign(env, {
    HOME: home, AGENTCORE_CONFIG_DIR: path.join(home, '.agentcore'),
    ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: baseURL,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1', DISABLE_TELEMETRY: '1',
  });
  firstAt = null;
  const start = performance.now();
  const q = query({ prompt: 'hi', options: { cwd, env, model: 'claude-sonnet-4-5', pathToClaudeCodeExecutable: cli } });
  let result = null;
  for await (const m of q) if (m.type === 'result') result = m;
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(cwd, { recursive: true, force: true });
  if (firstAt === null) throw new Error(`${cli} made no model request`);
  if (!result || result.result !== 'hello') throw new Error(`${cli} did not end with the fake's answer: ${JSON.stringify(result)}`);
  return firstAt - start;
}

const out = {};
const named = clis.map((s) => { const i = s.indexOf('='); return [s.slice(0, i), s.slice(i + 1)]; });
for (const [name] of named) out[name] = [];
for (let i = 0; i < runs; i++) {
  // Alternate which goes first.
  const order = i % 2 === 0 ? named : [...named].reverse();
  for (const [name, cli] of order) out[name].push(await once(cli));
}
server.close();
console.log(JSON.stringify(out));

// Dumps tools/list of the three npm reference MCP servers into
// <server>.json beside this script (the ToolSearch evaluation's fixtures).
// The client declares roots, sampling and elicitation, so server-everything
// lists its get-roots-list, trigger-sampling-request and
// trigger-elicitation-request tools too (39 tools in all). Run from a
// scratch directory:
//
//   npm install @modelcontextprotocol/sdk @modelcontextprotocol/server-filesystem \
//     @modelcontextprotocol/server-everything @modelcontextprotocol/server-memory
//   mkdir -p allowed out && node dump.mjs && cp out/*.json <this directory>
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import fs from "node:fs";
const servers = {
  filesystem: ["node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", "allowed"],
  everything: ["node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"],
  memory: ["node_modules/@modelcontextprotocol/server-memory/dist/index.js"],
};
for (const [name, args] of Object.entries(servers)) {
  const t = new StdioClientTransport({ command: "node", args, env: { ...process.env, MEMORY_FILE_PATH: "memory.jsonl" }, stderr: "ignore" });
  const c = new Client({ name: "dump", version: "1" }, { capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: {} } });
  c.setRequestHandler((await import("@modelcontextprotocol/sdk/types.js")).ListRootsRequestSchema, async () => ({ roots: [] }));
  await c.connect(t);
  await new Promise(r => setTimeout(r, 500));
  const v = c.getServerVersion();
  const r = await c.listTools();
  fs.writeFileSync(`out/${name}.json`, JSON.stringify({ server: name, serverInfo: v, tools: r.tools }, null, 2) + "\n");
  console.log(name, v?.version, r.tools.length, r.tools.map(t => t.name).join(" "));
  await c.close();
}

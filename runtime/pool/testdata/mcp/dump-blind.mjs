// Dump tools/list (and initialize instructions) of each MCP server to
// /work/blind/mcp/<server>.json. Offline, dummy credentials only.
// Usage: node /work/blind/dump.mjs [server ...]   (default: all below)
import { createRequire } from "node:module";
import { writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const npmDir = path.join(here, "npm");
const require = createRequire(path.join(npmDir, "package.json"));
const { Client } = await import(require.resolve("@modelcontextprotocol/sdk/client/index.js"));
const { StdioClientTransport } = await import(require.resolve("@modelcontextprotocol/sdk/client/stdio.js"));

const bin = (p, rel) => path.join(npmDir, "node_modules", p, rel);
const DUMMY = "dummy-token-for-offline-tools-list";

// short name -> package, entry script, args, env
export const SERVERS = {
  github: { pkg: "@modelcontextprotocol/server-github", entry: "dist/index.js", env: { GITHUB_PERSONAL_ACCESS_TOKEN: DUMMY } },
  puppeteer: { pkg: "@modelcontextprotocol/server-puppeteer", entry: "dist/index.js", env: { PUPPETEER_SKIP_DOWNLOAD: "1" } },
  slack: { pkg: "@modelcontextprotocol/server-slack", entry: "dist/index.js", env: { SLACK_BOT_TOKEN: "xoxb-" + DUMMY, SLACK_TEAM_ID: "T00000000" } },
  "sequential-thinking": { pkg: "@modelcontextprotocol/server-sequential-thinking", entry: "dist/index.js" },
  gitlab: { pkg: "@modelcontextprotocol/server-gitlab", entry: "dist/index.js", env: { GITLAB_PERSONAL_ACCESS_TOKEN: DUMMY } },
  "google-maps": { pkg: "@modelcontextprotocol/server-google-maps", entry: "dist/index.js", env: { GOOGLE_MAPS_API_KEY: DUMMY } },
  "brave-search": { pkg: "@modelcontextprotocol/server-brave-search", entry: "dist/index.js", env: { BRAVE_API_KEY: DUMMY } },
  postgres: { pkg: "@modelcontextprotocol/server-postgres", entry: "dist/index.js", args: ["postgresql://localhost/dummy"] },
  playwright: { pkg: "@playwright/mcp", entry: "cli.js", args: ["--headless"] },
  notion: { pkg: "@notionhq/notion-mcp-server", entry: "bin/cli.mjs", env: { NOTION_TOKEN: "ntn_" + DUMMY } },
  kubernetes: { pkg: "mcp-server-kubernetes", entry: "dist/index.js" },
};

async function dump(name) {
  const s = SERVERS[name];
  const version = require(path.join(s.pkg, "package.json")).version;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin(s.pkg, s.entry), ...(s.args || [])],
    env: { ...process.env, ...(s.env || {}) },
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (d) => { err += d; });
  const client = new Client({ name: "blind-dump", version: "1.0.0" });
  try {
    await client.connect(transport);
    const tools = [];
    let cursor;
    do {
      const r = await client.listTools(cursor ? { cursor } : {});
      tools.push(...r.tools);
      cursor = r.nextCursor;
    } while (cursor);
    const out = { server: name, package: s.pkg, version };
    const instr = client.getInstructions?.();
    if (instr) out.instructions = instr;
    out.tools = tools;
    mkdirSync(path.join(here, "mcp"), { recursive: true });
    writeFileSync(path.join(here, "mcp", `${name}.json`), JSON.stringify(out, null, 2) + "\n");
    console.log(`${name}\t${s.pkg}@${version}\t${tools.length} tools${instr ? "\t(instructions)" : ""}`);
  } catch (e) {
    console.log(`${name}\tFAILED: ${e.message}\n${err.slice(0, 2000)}`);
  } finally {
    await client.close().catch(() => {});
  }
}

const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(SERVERS);
for (const n of names) await dump(n);
process.exit(0);

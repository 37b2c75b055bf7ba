// What an MCP tool call costs against a built-in one: a built-in read_file and the scripted MCP server's echo
// (stdio, a child process started once, as in a run) called alternately through their ToolDefs (scrubbing, capping
// and fencing included), medians compared. One line: the ratio.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createMcpHub } from "../dist/mcp/hub.js";
import { TOOLS } from "../dist/tools/registry.js";

const ROUNDS = 200;
const SERVER = fileURLToPath(new URL("../tests/helpers/mcp-scripted-server.mjs", import.meta.url));

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export async function benchMcpToolCost(print) {
  print("MCP tool call vs built-in tool call (median of alternated calls, same machine and run)");
  const root = mkdtempSync(join(tmpdir(), "yolo-bench-mcp-"));
  writeFileSync(join(root, "notes.txt"), "hello\n");
  const env = { PATH: process.env.PATH, HOME: process.env.HOME };
  const config = { root, configFile: null, stateDir: join(root, ".yolo"), mcpServers: { s: { command: process.execPath, args: [SERVER, "ok"] } } };
  const hub = createMcpHub({ config, connect: { root, env, secretEnvNames: [], envAllow: null }, logger: { info() {}, warn() {} } });
  const ctx = { root, commandTimeoutS: 30, outputCapBytes: 16000, readCapBytes: 64000, env, secretEnvNames: [] };
  try {
    await hub.start({ threadId: "bench", emit() {} });
    const echo = hub.tool("mcp__s__echo");
    const builtin = [];
    const mcp = [];
    for (let i = 0; i < ROUNDS + 20; i++) {
      const t = performance.now();
      const a = await TOOLS.read_file.run({ path: "notes.txt" }, ctx);
      const b0 = performance.now();
      const b = await echo.run({ text: "hello" }, ctx);
      const b1 = performance.now();
      if (!a.ok || !b.ok) throw new Error(`a call failed: ${a.content} ${b.content}`);
      // The first rounds warm up (JIT, page cache).
      if (i >= 20) {
        builtin.push(b0 - t);
        mcp.push(b1 - b0);
      }
    }
    const d = median(builtin);
    const m = median(mcp);
    print(`  read_file (built-in): ${d.toFixed(3)} ms, mcp__s__echo (stdio): ${m.toFixed(3)} ms → ${(m / Math.max(d, 0.001)).toFixed(1)}× a built-in call`);
  } finally {
    await hub.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

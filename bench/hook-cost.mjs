// What a PreToolUse hook adds to a tool call: the same run_command call (`true`) bare, and wrapped by yolo's hook
// layer with one hook (`true`, then `node -e 0`, the usual shape of a hook script), alternated in one run, medians
// compared as ratios against the bare call.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { HookRunner, registerHooks } from "../dist/hooks/hooks.js";
import { toolHooks } from "../dist/hooks/tool-hooks.js";
import { runShell } from "../dist/exec/run-shell.js";

const ROUNDS = 30;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export async function benchHookCost(print) {
  print("Tool call cost with a PreToolUse hook (median of alternated runs, same machine and run)");
  const root = mkdtempSync(join(tmpdir(), "yolo-bench-hooks-"));
  const env = { PATH: process.env.PATH, HOME: process.env.HOME };
  const call = { id: "c1", name: "run_command", args: { command: "true" }, raw: "{}", parseError: null };
  const run = async () => {
    const r = await runShell("true", { cwd: root, timeoutS: 30, env, capBytes: 4096 });
    return { ok: r.exitCode === 0, content: r.output, summary: "true" };
  };
  const scope = { emit: () => {}, threadId: "bench" };
  try {
    for (const hook of ["true", "node -e 0"]) {
      const runner = new HookRunner(registerHooks({ PreToolUse: [{ hooks: [{ type: "command", command: hook }] }] }, "user", root), { root, env });
      const wrapped = toolHooks(runner, ["run_command"], scope);
      const bare = [];
      const hooked = [];
      for (let i = 0; i < ROUNDS + 2; i++) {
        let t = performance.now();
        await run();
        const a = performance.now() - t;
        t = performance.now();
        const outcome = await wrapped(call, run);
        const b = performance.now() - t;
        if (!outcome.ok) throw new Error(`the hooked call failed: ${outcome.content}`);
        // The first two rounds warm up (page cache, JIT).
        if (i >= 2) {
          bare.push(a);
          hooked.push(b);
        }
      }
      const d = median(bare);
      const h = median(hooked);
      print(`  hook ${hook.padEnd(10)}: ${d.toFixed(1)} ms bare, ${h.toFixed(1)} ms with the hook → ${(h / Math.max(d, 0.1)).toFixed(2)}×`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

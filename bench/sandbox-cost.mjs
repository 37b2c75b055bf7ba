// What bubblewrap costs a command: the same commands run directly and inside bwrap (the sandbox yolo builds:
// read-only root, private /tmp, the project writable, no network, own PID namespace), alternated in one run,
// medians compared. Skipped with the reason when bwrap cannot build its sandbox here.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runShell } from "../dist/exec/run-shell.js";
import { probeBwrap } from "../dist/exec/sandbox.js";

const ROUNDS = 30;
const COMMANDS = [
  ["true", "true"],
  ["node -e 0", "node -e 0"],
];

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export async function benchSandboxCost(print) {
  print("Command cost under bubblewrap (median of alternated runs, same machine and run)");
  const probe = probeBwrap(process.env.PATH);
  if (!probe.available) {
    print(`  skipped: ${probe.reason}`);
    return;
  }
  const root = mkdtempSync(join(tmpdir(), "yolo-bench-bwrap-"));
  const options = { cwd: root, timeoutS: 30, env: { PATH: process.env.PATH, HOME: process.env.HOME }, capBytes: 4096 };
  const bwrap = { kind: "bwrap", binary: probe.binary };
  try {
    for (const [label, command] of COMMANDS) {
      const direct = [];
      const sandboxed = [];
      for (let i = 0; i < ROUNDS + 2; i++) {
        const a = await runShell(command, options);
        const b = await runShell(command, { ...options, sandbox: bwrap });
        if (a.exitCode !== 0 || b.exitCode !== 0) throw new Error(`${command} failed: ${a.output} ${b.output}`);
        // The first two rounds warm up (page cache, JIT).
        if (i >= 2) {
          direct.push(a.durationMs);
          sandboxed.push(b.durationMs);
        }
      }
      const d = median(direct);
      const s = median(sandboxed);
      print(`  ${label.padEnd(10)}: ${d} ms directly, ${s} ms in bwrap → ${s >= d ? "+" : "−"}${Math.abs(s - d)} ms, ${(s / Math.max(d, 1)).toFixed(2)}×`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

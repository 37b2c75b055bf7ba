// What bubblewrap costs a command: the same commands run directly and inside bwrap (the sandbox yolo builds:
// read-only root, private /tmp, the project writable, no network, own PID namespace), alternated in one run,
// medians compared. Skipped with the reason when bwrap cannot build its sandbox here.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { openCommandCgroups } from "../dist/exec/command-cgroups.js";
import { runShell } from "../dist/exec/run-shell.js";
import { bwrapArgv, probeBwrap } from "../dist/exec/sandbox.js";
import { DEFAULT_SANDBOX_LIMITS } from "../dist/exec/sandbox-walls.js";

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

// One start of `argv` (stdio ignored) to its exit, in ms.
function timed(argv) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: "ignore" });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${argv[0]} exited ${code}`))));
  });
}

/**
 * What the host shell in front of bubblewrap (it opens the seccomp filter on bwrap's fd) and the command's cgroups
 * (made, joined, removed) add to `true` in the sandbox: three argv shapes alternated in one run, medians compared
 * with plain bubblewrap (no filter, no shell, no cgroups).
 */
export async function benchSandboxShapes(print) {
  print("Host shell and cgroups in front of bubblewrap (`true`, median of alternated runs, against plain bwrap)");
  const probe = probeBwrap(process.env.PATH);
  if (!probe.available) {
    print(`  skipped: ${probe.reason}`);
    return;
  }
  const root = mkdtempSync(join(tmpdir(), "yolo-bench-shapes-"));
  const plain = { kind: "bwrap", binary: probe.binary, limits: { ...DEFAULT_SANDBOX_LIMITS, unixSockets: "allow" } };
  const filtered = { kind: "bwrap", binary: probe.binary, limits: DEFAULT_SANDBOX_LIMITS };
  const times = { plain: [], filtered: [], cgroups: [] };
  let groups = "none (not root, or no writable cgroup v1 controllers)";
  try {
    for (let i = 0; i < ROUNDS * 2 + 2; i++) {
      const a = await timed(bwrapArgv(plain, root, "true"));
      const b = await timed(bwrapArgv(filtered, root, "true"));
      // The cgroups' making and removal are part of a command's cost: timed with it.
      const started = performance.now();
      const cg = openCommandCgroups(DEFAULT_SANDBOX_LIMITS);
      if (cg) groups = cg.dirs.map((d) => d.split("/")[4]).join(" + ");
      await timed(bwrapArgv(cg ? { ...filtered, cgroups: cg.dirs } : filtered, root, "true"));
      cg?.close();
      const c = performance.now() - started;
      if (i >= 2) {
        times.plain.push(a);
        times.filtered.push(b);
        times.cgroups.push(c);
      }
    }
    const p = median(times.plain);
    const line = (label, ms) => `  ${label.padEnd(34)}: ${ms.toFixed(1)} ms, ${(ms / p).toFixed(2)}× (${ms >= p ? "+" : "−"}${Math.abs(ms - p).toFixed(1)} ms)`;
    print(`  ${"plain bwrap".padEnd(34)}: ${p.toFixed(1)} ms`);
    print(line("host shell + seccomp filter", median(times.filtered)));
    print(line(`host shell + filter + cgroups (${groups})`, median(times.cgroups)));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

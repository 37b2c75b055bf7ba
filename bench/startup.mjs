// What a user feels before yolo answers: each command of the built binary against `node -e 0`, alternated in one run
// and compared by medians. For `run` and `resume` the time is to the first line on stdout (the first JSON event);
// the rest run to their exit. The project is the recorded example, replayed, so no model or network is involved.
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";

const ROUNDS = 10;
const BIN = fileURLToPath(new URL("../bin/yolo.js", import.meta.url));
const EXAMPLE = fileURLToPath(new URL("../examples/add-numbers/", import.meta.url));
const REQUIREMENT = "Add an add(a, b) function to src/add.js that returns the sum of two numbers";

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

// Milliseconds until the child exits, or until its first stdout line when `firstLine` (then it is killed).
function timeCommand(args, cwd, { firstLine = false } = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, {
      cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, CI: "true" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
    let done = false;
    let firstLineAt = null;
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    child.stdout.on("data", (d) => {
      if (firstLine && firstLineAt === null && String(d).includes("\n")) {
        firstLineAt = elapsed();
        child.kill("SIGKILL");
      }
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      if (done) return;
      done = true;
      // Resolved only once the killed child is gone: while it was still exiting, it slowed the next case down
      // (--version, which followed resume, read 1.34× while its CPU time is within 4% of `node -e 0`'s).
      if (firstLineAt !== null) return resolve(firstLineAt);
      if (firstLine || (code !== 0 && code !== 1)) reject(new Error(`yolo ${args.slice(1).join(" ")} exited ${code}: ${err}`));
      else resolve(elapsed());
    });
  });
}

export async function benchStartup(print) {
  print("Start-up: time to answer against `node -e 0` (median of alternated runs; run/resume: to the first JSON event)");
  const dir = mkdtempSync(join(tmpdir(), "yolo-bench-startup-"));
  const project = join(dir, "project");
  const empty = join(dir, "empty");
  const configured = join(dir, "configured");
  try {
    cpSync(join(EXAMPLE, "project"), project, { recursive: true });
    cpSync(join(EXAMPLE, "project"), empty, { recursive: true });
    cpSync(join(EXAMPLE, "project"), configured, { recursive: true });
    writeFileSync(join(configured, "yolo.config.ts"), "export default { maxFixAttempts: 2 };\n");
    const commitAll = (root) => {
      execFileSync("git", ["add", "-A"], { cwd: root });
      execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "init", "--allow-empty"], { cwd: root });
    };
    for (const root of [project, empty, configured]) {
      execFileSync("git", ["init", "-q"], { cwd: root });
      commitAll(root);
    }
    const replay = ["--replay", join(EXAMPLE, "session.jsonl")];
    // One finished thread for show, history and resume.
    const out = execFileSync(process.execPath, [BIN, "run", "--json", ...replay, REQUIREMENT], {
      cwd: project,
      encoding: "utf8",
      env: { PATH: process.env.PATH, HOME: process.env.HOME, CI: "true" },
    });
    const thread = JSON.parse(out.split("\n")[0]).thread;
    // The run's change committed, `run` starts on a clean tree, as most do; a copy with the change left uncommitted
    // times the other start, which first records the tree in a snapshot commit (five more git commands).
    const dirty = join(dir, "dirty");
    cpSync(project, dirty, { recursive: true });
    rmSync(join(dirty, ".yolo"), { recursive: true, force: true });
    commitAll(project);
    const cases = [
      ["--version", [BIN, "--version"], empty],
      ["--help", [BIN, "--help"], empty],
      // Help forms are printed from dist/help.json by the CommonJS shim; `-C .` makes the CLI itself answer.
      ["run --help", [BIN, "run", "--help"], empty],
      ["-C . --help (CLI)", [BIN, "-C", ".", "--help"], empty],
      ["threads (empty)", [BIN, "threads"], empty],
      // A config file brings in its loader and validator (jiti, zod); without one, neither is imported.
      ["threads (config)", [BIN, "threads"], configured],
      ["threads", [BIN, "threads"], project],
      ["show", [BIN, "show", thread], project],
      ["history", [BIN, "history", thread], project],
      ["graph", [BIN, "graph"], project],
      ["run: 1st event", [BIN, "run", "--json", ...replay, REQUIREMENT], project, true],
      ["run, uncommitted: 1st", [BIN, "run", "--json", ...replay, REQUIREMENT], dirty, true],
      ["resume: 1st event", [BIN, "resume", "--json", ...replay, thread], project, true],
    ];
    const base = [];
    const times = cases.map(() => []);
    for (let round = 0; round < ROUNDS + 1; round++) {
      // Each round starts at another case and measures the baseline twice (first and half-way), so no case always runs
      // in the same place.
      const order = cases.map((_, i) => (i + round) % cases.length);
      const b = [await timeCommand(["-e", "0"], empty)];
      const row = [];
      for (const [n, i] of order.entries()) {
        if (n === Math.floor(cases.length / 2)) b.push(await timeCommand(["-e", "0"], empty));
        const [, args, cwd, firstLine] = cases[i];
        row[i] = await timeCommand(args, cwd, { firstLine });
      }
      // The first round warms the page cache.
      if (round === 0) continue;
      base.push(...b);
      row.forEach((t, i) => {
        times[i].push(t);
      });
    }
    const b = median(base);
    print(`  node -e 0            : ${b.toFixed(0)} ms (1.00×)`);
    cases.forEach(([label], i) => {
      const t = median(times[i]);
      print(`  ${label.padEnd(21)}: ${t.toFixed(0)} ms (${(t / b).toFixed(2)}×)`);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await benchStartup((line) => console.log(line));

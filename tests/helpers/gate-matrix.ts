import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { probeBwrap, type Sandbox } from "../../src/exec/sandbox.js";
import type { GateConfig } from "../../src/gates/schema.js";
import { type BaselineGate, type GateJudgement, judgeGate } from "../../src/gates/judge.js";
import { type GateRun, runGatesWithTests } from "../../src/gates/run-gates.js";

/**
 * A generated project run by a real test runner through the real gate code (`runGatesWithTests`, inside bubblewrap
 * when it works here, with a state folder for the toolchains' caches, as a run's gates are), and judged against a
 * baseline run of the same project. Used by the runner matrix in tests/integration/gates/.
 */
const probe = probeBwrap(process.env.PATH);
export const matrixSandbox: Sandbox = probe.available ? { kind: "bwrap", binary: probe.binary } : { kind: "none" };

export interface MatrixProject {
  root: string;
  stateDir: string;
  /** Writes (or, with null, deletes) files relative to the root. */
  write(files: Record<string, string | null>): void;
  /** Runs `command` as the project's gate. */
  gate(command: string, opts?: { timeoutS?: number; env?: NodeJS.ProcessEnv; sandbox?: Sandbox }): Promise<GateRun>;
  remove(): void;
}

/**
 * The environment for a gate run of pytest whose test is not about pytest's plugins: the plugins an interpreter here
 * happens to have installed (hypothesis, pytest-benchmark…) are not loaded. The gate gives each run a new bytecode
 * folder (src/gates/fresh-caches.ts), so everything pytest imports is compiled afresh each run, and those plugins were
 * about half of every run's CPU. A test that needs a plugin (pytest-rerunfailures) runs without this.
 */
export const PYTEST_NO_PLUGINS: NodeJS.ProcessEnv = { PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1" };

let attempt = 0;

/** A temporary project with `files`; the home folder is a temporary one outside /tmp (the sandbox's /tmp is private). */
export function matrixProject(prefix: string, files: Record<string, string>): MatrixProject {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `yolo-${prefix}-`)));
  const home = fs.realpathSync(fs.mkdtempSync(path.join("/var/tmp", `yolo-${prefix}-home-`)));
  const stateDir = path.join(root, ".yolo");
  fs.mkdirSync(stateDir);
  const write = (more: Record<string, string | null>) => {
    for (const [file, text] of Object.entries(more)) {
      const at = path.join(root, file);
      if (text === null) fs.rmSync(at, { force: true });
      else {
        fs.mkdirSync(path.dirname(at), { recursive: true });
        fs.writeFileSync(at, text);
      }
    }
  };
  write(files);
  return {
    root,
    stateDir,
    write,
    async gate(command, opts = {}) {
      const gate: GateConfig = { name: "test", command, required: true, timeoutS: opts.timeoutS ?? 120 };
      const env = { PATH: process.env.PATH, HOME: home, GOFLAGS: "-mod=mod", GOPROXY: "off", GOTOOLCHAIN: "local", CARGO_NET_OFFLINE: "true", ...opts.env };
      const [run] = await runGatesWithTests([gate], {
        root,
        env,
        capBytes: 512 * 1024,
        attempt: ++attempt,
        logDir: path.join(stateDir, "logs"),
        commands: { envAllow: null, sandbox: opts.sandbox ?? matrixSandbox } as never,
        stateDir,
      });
      return run;
    },
    remove() {
      fs.rmSync(root, { recursive: true, force: true });
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}

/** The baseline record of a gate run, as the thread's baseline step keeps it. */
export function asBaseline(run: GateRun): BaselineGate {
  const { result } = run;
  return { name: result.name, passed: result.passed, passedCount: result.passedCount, failedCount: result.failedCount, tests: run.tests };
}

/** yolo's verdict on `run` against `baseline`, targets blocking (the default). */
export function judged(run: GateRun, baseline: GateRun): GateJudgement {
  return judgeGate(run.result, run.tests, asBaseline(baseline), { preExistingAllowed: false, changes: [], approved: false });
}

/** The judgement's lists that say what changed, for one readable assertion. */
export function verdict(j: GateJudgement) {
  return { regressions: j.regressions, preExisting: j.preExisting, newFailures: j.newFailures, missing: j.missing, fixed: j.fixed, blocking: j.blocking };
}

export const statuses = (tests: Array<{ id: string; status: string }> | null | undefined) => Object.fromEntries((tests ?? []).map((t) => [t.id, t.status]));

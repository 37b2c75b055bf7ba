import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type BaselineGate, type GateJudgement, judgeGate } from "../../src/gates/judge.js";
import { type GateRun, runGatesWithTests } from "../../src/gates/run-gates.js";
import { probeBwrap, type Sandbox } from "../../src/exec/sandbox.js";
import { repoModules } from "./repo-modules.js";

const probe = probeBwrap(process.env.PATH);
/** The sandbox a run's gates get here: bubblewrap when it works (under CI it must). */
export const gateSandbox: Sandbox = probe.available ? { kind: "bwrap", binary: probe.binary } : { kind: "none" };

/** A generated JavaScript project in a temp folder, its node_modules the repo's (the real runners), its files swapped per state. */
export interface JsProject {
  root: string;
  /** Writes the files (null deletes one). */
  write(files: Record<string, string | null>): void;
  /** Runs `command` as a gate, through the real gate code, sandboxed as a run's gates are. */
  gate(command: string, timeoutS?: number): Promise<GateRun>;
  remove(): void;
}

export function jsProject(prefix: string, files: Record<string, string | null>): JsProject {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `yolo-${prefix}-`)));
  linkPackages(root);
  let runs = 0;
  const project: JsProject = {
    root,
    write(next) {
      for (const [rel, text] of Object.entries(next)) {
        const file = path.join(root, rel);
        if (text === null) fs.rmSync(file, { force: true });
        else {
          fs.mkdirSync(path.dirname(file), { recursive: true });
          fs.writeFileSync(file, text);
        }
      }
    },
    async gate(command, timeoutS = 90) {
      const stateDir = path.join(root, ".yolo");
      const [run] = await runGatesWithTests([{ name: "test", command, required: true, timeoutS }], {
        root,
        // The project's own .bin first, as a shell in an installed project has it: the test process's PATH names the
        // repository's, which the sandbox does not show when the checkout is under /tmp or a home folder.
        env: { PATH: `${path.join(root, "node_modules", ".bin")}${path.delimiter}${process.env.PATH}`, HOME: os.homedir(), NO_COLOR: "1" },
        capBytes: 512 * 1024,
        attempt: ++runs,
        logDir: path.join(stateDir, "gates"),
        stateDir,
        commands: { envAllow: null, sandbox: gateSandbox },
      });
      return run;
    },
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
  project.write(files);
  return project;
}

/**
 * A real node_modules folder whose entries link to the repo's packages, as an installed project has one: runners write
 * their caches into it (ava's node_modules/.cache/ava), which a link to the repo's whole folder, read-only inside the
 * sandbox, would refuse.
 */
function linkPackages(root: string): void {
  const source = repoModules();
  const target = path.join(root, "node_modules");
  fs.mkdirSync(target);
  for (const entry of fs.readdirSync(source)) {
    if (entry !== ".cache" && entry !== ".bin") fs.symlinkSync(path.join(source, entry), path.join(target, entry));
  }
  // The sandbox binds node_modules/.bin read-only over itself, which needs a folder; its links are relative (../pkg/…).
  fs.mkdirSync(path.join(target, ".bin"));
  for (const bin of fs.readdirSync(path.join(source, ".bin"))) {
    fs.symlinkSync(fs.readlinkSync(path.join(source, ".bin", bin)), path.join(target, ".bin", bin));
  }
}

/** A gate run as the thread's baseline records it. */
export function asBaseline(run: GateRun): BaselineGate {
  const { result, tests, files, skippedCount } = run;
  return { name: result.name, passed: result.passed, passedCount: result.passedCount, failedCount: result.failedCount, tests, files, skippedCount };
}

/** yolo's verdict on `now` against `base`, as gate-check.ts asks for it (no gate change, failures are targets). */
export function judged(base: GateRun, now: GateRun): GateJudgement {
  return judgeGate(now.result, now.tests, asBaseline(base), {
    preExistingAllowed: false,
    changes: [],
    approved: false,
    evidence: { files: now.files, skippedCount: now.skippedCount, runner: now.runner },
  });
}

/** A run's output for an assertion message. */
export const shown = (run: GateRun) => `${run.result.command} (${run.result.reading}):\n${run.outputs?.[0]?.slice(-3000) ?? ""}`;

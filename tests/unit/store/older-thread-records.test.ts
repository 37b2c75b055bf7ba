import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { recordedBaseline } from "../../../src/engine/nodes/gate-baseline.js";
import { threadKnownFailureFlags } from "../../../src/store/known-failure-flags.js";
import { threadTestCommand } from "../../../src/store/thread-test-command.js";
import { tempDir } from "../../helpers/per-test.js";

// A thread's records are `.jsonl` files now (a `.json` one in the project was flagged by `prettier --check .`);
// a thread an older yolo wrote, with `.json` names, still resumes with its test command, known failures and baseline.
function olderThread(onTestFinished: Parameters<typeof tempDir>[0], files: Record<string, unknown>): string {
  const stateDir = tempDir(onTestFinished, "yolo-older-");
  const dir = join(stateDir, "threads", "old1");
  mkdirSync(dir, { recursive: true });
  for (const [name, value] of Object.entries(files)) writeFileSync(join(dir, name), JSON.stringify(value));
  return stateDir;
}

describe("a thread an older yolo wrote", () => {
  it("keeps its --test-cmd", ({ onTestFinished }) => {
    const stateDir = olderThread(onTestFinished, { "test-command.json": "pytest -x" });
    expect(threadTestCommand(stateDir, "old1", undefined).command).toBe("pytest -x");
  });

  it("keeps its --known-failure patterns, and adds new ones to them", async ({ onTestFinished }) => {
    const stateDir = olderThread(onTestFinished, { "known-failures.json": ["net > *"] });
    expect(await threadKnownFailureFlags(stateDir, "old1", ["slow > one"])).toEqual(["net > *", "slow > one"]);
    expect(await threadKnownFailureFlags(stateDir, "old1")).toEqual(["net > *", "slow > one"]);
  });

  it("keeps a baseline it recorded before its first checkpoint", async ({ onTestFinished }) => {
    const stateDir = tempDir(onTestFinished, "yolo-older-");
    const record = join(stateDir, "threads", "old1", "gate-baseline.json");
    const ref = { file: record, noGate: null, gates: [{ name: "test", passed: true, passedCount: 2, failedCount: 0, tests: 2 }] };
    mkdirSync(join(stateDir, "threads", "old1"), { recursive: true });
    writeFileSync(record, "{}");
    writeFileSync(join(stateDir, "threads", "old1", "gate-baseline-ref.json"), JSON.stringify(ref));
    expect(await recordedBaseline({ config: { stateDir } } as never, "old1")).toEqual(ref);
  });
});

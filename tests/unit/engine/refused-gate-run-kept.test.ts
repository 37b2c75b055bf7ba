import { describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { refusedGatesFile, refuseRecorded, withRefusedGates } from "../../../src/engine/gate-refused.js";
import { judgedVerdict } from "../../../src/events/judgement-words.js";
import { gateResult } from "../../helpers/gate-result.js";

// A leg the environment stopped at a gate throws before any checkpoint holds that run: the run is kept for readers.
describe("the gate run the environment refused", () => {
  const broken = gateResult({
    passed: false,
    exitCode: 1,
    baseline: true,
    attempt: 0,
    tail: "E ModuleNotFoundError",
    environment: { kind: "not-installed", line: "E ModuleNotFoundError: No module named 'calc'", fix: "pip install -e ." },
  });

  it("is written before the error ends the run, shown after the checkpointed runs, and removed once the gates get past the check", async () => {
    const dir = mkdtempSync(join(tmpdir(), "refused-"));
    try {
      const file = refusedGatesFile(dir, "t1");
      await expect(refuseRecorded(file, [broken], "dev")).rejects.toThrow(/the project is not installed/);
      expect(JSON.parse(readFileSync(file, "utf8"))[0]).not.toHaveProperty("tail");
      const earlier = gateResult({ attempt: 1 });
      const shown = await withRefusedGates({ gateHistory: [earlier] }, dir, "t1");
      expect(shown.gateHistory.map((g) => [g.attempt, g.environment?.kind])).toEqual([
        [1, undefined],
        [0, "not-installed"],
      ]);
      expect(judgedVerdict(shown.gateHistory[1] ?? earlier)).toBe("FAIL (baseline) — the environment's failure: the project is not installed");

      await refuseRecorded(file, [gateResult()], "dev");
      expect(existsSync(file)).toBe(false);
      expect((await withRefusedGates({ gateHistory: [earlier] }, dir, "t1")).gateHistory).toEqual([earlier]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("still ends the run when the record cannot be written", async () => {
    const dir = mkdtempSync(join(tmpdir(), "refused-"));
    try {
      // Its folder is a file: the record cannot be written.
      writeFileSync(join(dir, "threads"), "");
      await expect(refuseRecorded(refusedGatesFile(dir, "t3"), [broken], "dev")).rejects.toThrow(/because of its environment/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a spared gate is not refused, and nothing is kept", async () => {
    const dir = mkdtempSync(join(tmpdir(), "refused-"));
    try {
      const file = refusedGatesFile(dir, "t2");
      await refuseRecorded(file, [broken], "dev", () => true);
      expect(existsSync(file)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

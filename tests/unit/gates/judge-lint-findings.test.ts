import { describe, expect, it } from "vitest";
import { type BaselineGate, judgeGate } from "../../../src/gates/judge.js";
import { gateResult } from "../../helpers/gate-result.js";

const opts = { preExistingAllowed: false, changes: [] as string[], approved: false };
const lint = (passed: boolean, over = {}) => gateResult({ name: "lint", command: "npm run lint", required: false, passed, exitCode: passed ? 0 : 1, ...over });
const base = (passed: boolean, findings?: string[] | null): BaselineGate => ({
  name: "lint",
  passed,
  passedCount: null,
  failedCount: null,
  tests: null,
  ...(findings !== undefined ? { findings } : {}),
});
const A = "src/a.js";
const UNUSED = "#:# error 'a' is assigned a value but never used no-unused-vars";

describe("a lint judged by its findings against the baseline", () => {
  it("blocks when it was green at the baseline and is red now, though optional", () => {
    const j = judgeGate(lint(false), null, base(true, []), { ...opts, findings: [A, UNUSED] });
    expect(j.blocking).toBe(true);
    expect(j.findings[0]).toMatch(/green at the baseline, red now/);
    expect(j.findings).toContain(`new finding: ${UNUSED}`);
  });

  it("does not block when red at the baseline with the same findings, and says so", () => {
    const j = judgeGate(lint(false), null, base(false, [A, UNUSED]), { ...opts, findings: [A, UNUSED] });
    expect(j.blocking).toBe(false);
    expect(j.findings).toEqual(["red at the baseline, no new findings"]);
  });

  it("blocks on a finding the baseline did not have, listing only that one", () => {
    const j = judgeGate(lint(false), null, base(false, [A, UNUSED]), { ...opts, findings: [A, UNUSED, UNUSED] });
    expect(j.blocking).toBe(true);
    expect(j.findings).toEqual([expect.stringMatching(/1 new finding since/), `new finding: ${UNUSED}`]);
  });

  it("passes when green now, and a change to the gate's definition still blocks", () => {
    expect(judgeGate(lint(true), null, base(false, [A, UNUSED]), { ...opts, findings: [] }).blocking).toBe(false);
    expect(judgeGate(lint(true), null, base(false, [A]), { ...opts, changes: ["lint script changed"], findings: [] }).blocking).toBe(true);
  });

  it("judges by exit code green → red only when a side's findings cannot be compared, and says why", () => {
    const older = judgeGate(lint(false), null, base(false), { ...opts, findings: [A, UNUSED] });
    expect(older.blocking).toBe(false);
    expect(older.findings[0]).toMatch(/older than findings.*judged by exit code/);
    const cut = judgeGate(lint(false), null, base(false, [A]), { ...opts, findings: null });
    expect(cut.blocking).toBe(false);
    expect(cut.findings[0]).toMatch(/too long to compare/);
    const timedOut = judgeGate(lint(false, { timedOut: true }), null, base(false, [A]), { ...opts, findings: [A] });
    expect(timedOut.findings[0]).toMatch(/timed out/);
    expect(judgeGate(lint(false), null, base(true, null), { ...opts, findings: null }).blocking).toBe(true);
  });

  it("leaves a gate without findings judged as before: an optional red gate with no per-test results never blocks", () => {
    expect(judgeGate(lint(false), null, base(true), opts).blocking).toBe(false);
  });
});

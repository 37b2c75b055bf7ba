import { describe, expect, it } from "vitest";
import { judgedVerdict } from "../../../src/events/judgement-words.js";
import { gateResult } from "../../helpers/gate-result.js";

// An optional gate judged by its findings (a detected lint) blocks on a new finding: its words must not say it does not count.
describe("the verdict word of an optional gate", () => {
  it("reads FAIL when it blocks, and FAIL (not required) when it does not", () => {
    expect(judgedVerdict(gateResult({ name: "lint", required: false, blocking: true }))).toBe("FAIL");
    expect(judgedVerdict(gateResult({ name: "lint", required: false, blocking: false }))).toBe("FAIL (not required)");
    expect(judgedVerdict(gateResult({ name: "lint", required: false }))).toBe("FAIL (not required)");
  });
});

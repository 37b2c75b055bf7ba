import { describe, expect, it } from "vitest";
import { exitCodeFor, LIMIT_KINDS, limitKindForExitCode, limitLabel, type RunStatus } from "../../../src/events/outcome.js";
import { LimitError } from "../../../src/errors.js";

describe("exit codes are a pure function of the status and, for a limit, its kind", () => {
  it("keeps the codes of the other statuses", () => {
    const codes: [RunStatus, number][] = [
      ["passed", 0],
      ["failed", 1],
      ["config_error", 2],
      ["waiting", 3],
      ["provider_error", 5],
      ["error", 70],
      ["interrupted", 130],
    ];
    for (const [status, code] of codes) expect(exitCodeFor(status), status).toBe(code);
  });

  it("gives each limit kind its own code", () => {
    expect(Object.fromEntries(LIMIT_KINDS.map((k) => [k, exitCodeFor("limit", k)]))).toEqual({ steps: 4, turns: 6, budget: 7, time: 8, loop: 9 });
  });

  it("a limit without a kind (a row written before kinds) stays 4", () => {
    expect(exitCodeFor("limit")).toBe(4);
    expect(exitCodeFor("limit", null)).toBe(4);
  });

  it("the kind is ignored for any other status", () => {
    expect(exitCodeFor("passed", "time")).toBe(0);
  });

  it("no limit code collides with another status's code, and each code maps back to its kind", () => {
    const others = (["passed", "failed", "config_error", "waiting", "provider_error", "error", "interrupted"] as RunStatus[]).map((s) => exitCodeFor(s));
    const limits = LIMIT_KINDS.map((k) => exitCodeFor("limit", k));
    expect(new Set(limits).size).toBe(LIMIT_KINDS.length);
    for (const code of limits) expect(others).not.toContain(code);
    for (const kind of LIMIT_KINDS) expect(limitKindForExitCode(exitCodeFor("limit", kind))).toBe(kind);
    expect(limitKindForExitCode(0)).toBeNull();
    expect(limitKindForExitCode(null)).toBeNull();
  });

  it("labels each kind in words, and LimitError carries its kind", () => {
    expect(LIMIT_KINDS.map(limitLabel)).toEqual(["step limit", "turn limit", "budget", "time limit", "loop detected"]);
    const error = new LimitError("time", "out of time");
    expect(error).toMatchObject({ code: "limit", kind: "time", message: "out of time" });
  });
});

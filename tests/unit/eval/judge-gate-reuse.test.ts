import { describe, expect, it } from "vitest";
import type { GateResult } from "../../../src/events/schema.js";
import type { BaselineRecord } from "../../../src/gates/baseline-record.js";
import { gateReuse, type ReuseInput } from "../../../src/eval/judge-reuse.js";
import type { RunFacts } from "../../../src/eval/run-events.js";

// When the run's own last gate results may stand for the judged tree's tests outside the narrowed files, and every
// doubt that sends the judge back to the whole suite.

const TREE = "a".repeat(40);
const GATE = { name: "test", command: "npm test", required: true, timeoutS: 600 };

function lastGate(over: Partial<GateResult> = {}): GateResult {
  return {
    name: "test",
    command: "npm test",
    required: true,
    passed: true,
    exitCode: 0,
    timedOut: false,
    durationMs: 10,
    attempt: 1,
    passedCount: 2,
    failedCount: 0,
    failures: [],
    tail: "",
    logFile: null,
    reading: "parsed",
    tests: 2,
    regressions: [],
    missing: [],
    blocking: false,
    treeBefore: TREE,
    treeAfter: TREE,
    ...over,
  };
}

const baseline: BaselineRecord = {
  definition: { gates: [], files: {} } as unknown as BaselineRecord["definition"],
  gates: [
    {
      name: "test",
      passed: false,
      passedCount: 1,
      failedCount: 1,
      tests: [
        { id: "truth holds", status: "passed" },
        { id: "add sums", status: "failed" },
      ],
    },
  ],
};

function input(over: { gate?: Partial<GateResult>; facts?: Partial<RunFacts>; rest?: Partial<ReuseInput> } = {}): ReuseInput {
  const facts: RunFacts = {
    thread: "t1",
    completed: null,
    fixAttempts: 0,
    testWrites: [],
    refusedGateChanges: [],
    legsMs: 0,
    lastGates: new Map([["test", lastGate(over.gate)]]),
    sandboxes: ["bwrap"],
    ...over.facts,
  };
  return { gates: [GATE], facts, sandbox: "bwrap", treeNow: TREE, baseline, leftOut: [], ...over.rest };
}

describe("the judge's reuse of the run's last gate results", () => {
  it("vouches for the tests that passed at the run's baseline when the last whole-suite run passed on the agents' final tree", () => {
    const r = gateReuse(input());
    expect(r).toEqual({ ok: true, passing: new Set(["test: truth holds"]) });
  });

  const refusals: Array<[string, Parameters<typeof input>[0], RegExp]> = [
    ["the eval ran unsandboxed", { rest: { sandbox: "none" } }, /not sandboxed/],
    ["a leg of the run was unsandboxed", { facts: { sandboxes: ["bwrap", "none"] } }, /not sandboxed/],
    ["the run said no sandbox", { facts: { sandboxes: [] } }, /not sandboxed/],
    ["the judge restored a file", { rest: { leftOut: ["test/helper.js"] } }, /test\/helper\.js was not taken over/],
    ["the agents' tree could not be hashed", { rest: { treeNow: null } }, /could not be hashed/],
    ["no baseline record", { rest: { baseline: null } }, /baseline record/],
    ["the agents changed the tree after the gate", { rest: { treeNow: "b".repeat(40) } }, /another tree/],
    ["the gate changed the tree while it ran", { gate: { treeBefore: "c".repeat(40) } }, /another tree/],
    ["no gate result after the baseline", { facts: { lastGates: new Map() } }, /no gate result/],
    ["the run's gate ran another command", { gate: { command: "node --test test/" } }, /not the task's/],
    ["the gate ran part of the suite", { gate: { scope: { kind: "changed", units: ["a"] } } }, /part of the suite/],
    ["the gate failed", { gate: { passed: false, exitCode: 1 } }, /did not pass/],
    ["the gate blocked", { gate: { blocking: true } }, /did not pass/],
    ["the gate read the exit code only", { gate: { reading: "exit-code", tests: null } }, /one by one/],
    ["a baseline test went missing", { gate: { missing: ["truth holds"] } }, /missing/],
    ["a gate change", { gate: { gateChange: ["test script changed"] } }, /gate change/],
    ["the baseline's tests ran in a copy apart", { gate: { baselineTestsRun: "clean-copy" } }, /copy apart/],
  ];
  for (const [what, over, reason] of refusals) {
    it(`runs the whole suite when ${what}`, () => {
      const r = gateReuse(input(over));
      expect(r.ok).toBe(false);
      expect(r.ok ? "" : r.reason).toMatch(reason);
    });
  }

  it("runs the whole suite when the baseline record lists no test of a required gate", () => {
    const counts: BaselineRecord = { ...baseline, gates: [{ ...baseline.gates[0], tests: null }] };
    const r = gateReuse(input({ rest: { baseline: counts } }));
    expect(r.ok ? "" : r.reason).toMatch(/lists no test/);
  });
});

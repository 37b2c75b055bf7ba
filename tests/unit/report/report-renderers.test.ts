import { describe, expect, it } from "vitest";
import { resumeCommandText } from "../../../src/cli/wording/resume-command.js";
import type { GateResult } from "../../../src/events/schema.js";
import { collectReport, costOf, type ReportData } from "../../../src/report/data.js";
import { renderJunit } from "../../../src/report/junit.js";
import { renderMarkdown } from "../../../src/report/markdown.js";
import { findAll, parseXml } from "../../helpers/xml.js";

function gate(over: Partial<GateResult>): GateResult {
  return {
    name: "test",
    command: "npm test",
    required: true,
    passed: true,
    exitCode: 0,
    timedOut: false,
    durationMs: 1500,
    attempt: 1,
    passedCount: 2,
    failedCount: 0,
    failures: [],
    tail: "ok",
    logFile: ".yolo/threads/t1/gates/attempt-1-test.log",
    ...over,
  };
}

const red = gate({
  passed: false,
  exitCode: 1,
  passedCount: 1,
  failedCount: 1,
  failures: ['adds <two> & "more"'],
  tail: "\x1b[31mnot ok\x1b[0m 2 - adds\u0007",
  logFile: ".yolo/threads/t1/gates/attempt-1-test.log",
});
const green = gate({ attempt: 2, logFile: ".yolo/threads/t1/gates/attempt-2-test.log" });
const lint = gate({
  attempt: 2,
  name: "lint",
  command: "npm run lint",
  required: false,
  passed: false,
  exitCode: 2,
  passedCount: null,
  failedCount: null,
  tail: "lint | broke",
});
const usage = (p: number, c: number, calls: number) => ({ promptTokens: p, completionTokens: c, totalTokens: p + c, calls });

function report(over: Partial<ReportData> = {}): ReportData {
  const values = {
    requirement: "Add an add(a, b) function\nto src/add.js",
    stories: [{ title: "Add | numbers", as_a: "a developer", i_want: "add(a, b)", so_that: "I can sum", acceptance_criteria: ["add(2, 3) is 5"] }],
    decisions: [{ title: "Module", decision: "ES module", rationale: "type: module" }],
    acceptanceCriteria: ["add(2, 3) is 5"],
    notes: {},
    filesChanged: ["src/add.js"],
    gateHistory: [red, green, lint].map(({ tail: _t, ...g }) => g),
    lastGates: [green, lint],
    verdict: "PASS",
    findings: ["covered"],
    fixAttempts: 1,
    usage: usage(1000, 200, 6),
    usageByNode: { analyst: usage(400, 50, 1), dev: usage(600, 150, 5) },
  };
  const data = collectReport({
    threadId: "t1",
    row: {
      id: "t1",
      requirement: "r",
      status: "passed",
      currentNode: "tea",
      createdAt: "c",
      updatedAt: "2026-01-01T00:00:00.000Z",
      root: "/p",
      model: "gpt-4o-mini",
      exitCode: 0,
      reason: "completed: 1/2 gates passed, verdict PASS",
      startCommit: "0123456789abcdef0123",
      branch: "yolo/t1",
      host: "h",
      user: "u",
      repo: "/p",
      artifacts: "/p/.yolo",
      mode: "run",
      unsettledUsage: null,
      forkedFrom: null,
    },
    values: values as never,
    waitingOn: null,
    diffstat: [
      { path: "src/add.js", added: 3, removed: 0 },
      { path: "img.png", added: null, removed: null },
    ],
    diffNote: null,
    price: null,
    readLog: (rel) => (rel.includes("attempt-1") ? "full log of attempt 1\nnot ok 2 - adds" : null),
  });
  return { ...data, ...over };
}

describe("yolo report --format markdown", () => {
  it("has the outcome, requirement, stories, decisions, diffstat, gates, verdict and token usage", () => {
    const md = renderMarkdown(report());
    expect(md).toMatch(/^## ✅ yolo passed — thread `t1`\n\n> Add an add\(a, b\) function\n> to src\/add\.js\n/);
    expect(md).toContain("| Outcome | **passed** (exit 0): completed: 1/2 gates passed, verdict PASS |");
    expect(md).toContain("| Branch | `yolo/t1` from `0123456789ab` |");
    expect(md).toContain("- **Add | numbers** — as a developer, I want add(a, b), so that I can sum\n  - add(2, 3) is 5");
    expect(md).toContain("- **Module**: ES module — _type: module_");
    expect(md).toContain("| `src/add.js` | 3 | 0 |\n| `img.png` | bin | bin |\n| **2 files** | **+3** | **−0** |");
    // A red required gate without a baseline judgement blocks: the row says so, never "passed" or a bare "failed".
    expect(md).toContain("| 1 | test | `npm test` | ⛔ blocked (failed, exit 1) | 1 passed, 1 failed |  | 1.5 s |");
    expect(md).toContain("| 2 | lint (optional) | `npm run lint` | ❌ failed (exit 2), optional |  |  | 1.5 s |");
    expect(md).toContain('Failing in test, attempt 1: adds &lt;two> & "more"');
    expect(md).toContain("Verdict of the test architect: **PASS**\n- covered");
    expect(md).toContain("| dev | 5 | 600 | 150 | 750 |\n| **total** | **6** | **1,000** | **200** | **1,200** |");
    expect(md).toContain("Cost: not computed, tokens only");
  });

  it("escapes pipes inside table cells", () => {
    const md = renderMarkdown(report({ diffstat: [{ path: "a|b.js", added: 1, removed: 1 }] }));
    expect(md).toContain("| `a\\|b.js` | 1 | 1 |");
  });

  it("shows cost only when a price is configured", () => {
    const price = { inputPerMillion: 0.15, outputPerMillion: 0.6, currency: "USD" };
    expect(costOf({ promptTokens: 1_000_000, completionTokens: 500_000 }, price)).toBeCloseTo(0.45);
    const md = renderMarkdown(report({ cost: { amount: costOf(report().usage, price), currency: "USD", price } }));
    expect(md).toContain("Cost: **0.00027 USD** at 0.15 / 0.6 USD per million prompt / completion tokens");
  });

  it("says what it waits on, and why there is no diffstat", () => {
    const md = renderMarkdown(
      report({ status: "waiting", waitingOn: { question: "Floats too?", review: false }, diffstat: null, diffNote: "/p is not a git repository" }),
      (f) => resumeCommandText(f),
    );
    expect(md).toMatch(/^## ❓ yolo waiting/);
    expect(md).toContain('**Waiting for an answer:** Floats too?\n\n```sh\nyolo resume t1 --answer "<your answer>"\n```');
    expect(renderMarkdown(report({ waitingOn: { question: "Approve the requirements?", review: true } }))).toContain(
      "**Waiting for a review:** Approve the requirements?",
    );
    expect(md).toContain("- `src/add.js`\n\n_No diffstat: /p is not a git repository_");
  });
});

describe("yolo report --format junit", () => {
  it("is well-formed XML with a suite per attempt and a failure per red gate, output included", () => {
    const xml = parseXml(renderJunit(report()));
    expect(xml.tag).toBe("testsuites");
    expect(xml.attrs).toMatchObject({ tests: "3", failures: "2", errors: "0", time: "4.500" });
    const suites = findAll(xml, "testsuite");
    expect(suites.map((s) => [s.attrs.name, s.attrs.tests, s.attrs.failures])).toEqual([
      ["yolo gates, attempt 1", "1", "1"],
      ["yolo gates, attempt 2", "2", "1"],
    ]);
    const cases = findAll(xml, "testcase");
    expect(cases.map((c) => [c.attrs.classname, c.attrs.name, c.attrs.time, c.children.map((f) => f.tag)])).toEqual([
      ["yolo.gates", "test", "1.500", ["failure"]],
      ["yolo.gates", "test", "1.500", []],
      ["yolo.gates", "lint", "1.500", ["failure"]],
    ]);
    const [first, lintFailure] = findAll(xml, "failure");
    expect(first.attrs).toEqual({ message: "`npm test` exit 1: 1 passed, 1 failed", type: "gate" });
    // An earlier attempt's output comes from its log file; the failing test names survive escaping.
    expect(first.text).toBe('Failing: adds <two> & "more"\n\nfull log of attempt 1\nnot ok 2 - adds\n\nFull output: .yolo/threads/t1/gates/attempt-1-test.log');
    expect(lintFailure.attrs.message).toBe("optional gate (did not block): `npm run lint` exit 2");
    expect(lintFailure.text).toContain("lint | broke");
    expect(findAll(xml, "property").map((p) => [p.attrs.name, p.attrs.value])).toContainEqual(["yolo.thread", "t1"]);
  });

  it("does not call an optional lint that blocked on a new finding one that did not block", () => {
    const data = report();
    data.gates = [{ ...data.gates[0], ...lint, blocking: true, findings: ["new finding: src/a.js:#:# no-var"] }];
    const failure = findAll(parseXml(renderJunit(data)), "failure")[0];
    expect(failure.attrs.message).toBe("`npm run lint` exit 2");
    expect(failure.text).toContain("new finding: src/a.js:#:# no-var");
  });

  it("drops ANSI colours and characters XML forbids from gate output", () => {
    const data = report();
    data.gates = [{ ...data.gates[0], output: "\x1b[31mnot ok\x1b[0m 2 - adds\u0007\u0000 end" }];
    const failure = findAll(parseXml(renderJunit(data)), "failure")[0];
    expect(failure.text).toContain("not ok 2 - adds end");
  });

  it("is an empty, valid document when no gate ran yet", () => {
    const xml = parseXml(renderJunit(report({ gates: [] })));
    expect(xml.attrs).toMatchObject({ tests: "0", failures: "0" });
    expect(xml.children).toEqual([]);
  });

  it("names the limit that stopped the thread, and the exit code, as suite properties", () => {
    const props = (data: ReturnType<typeof report>) =>
      findAll(parseXml(renderJunit(data)), "property")
        .filter((p) => p.attrs.name !== "yolo.thread" && p.attrs.name !== "yolo.attempt")
        .map((p) => [p.attrs.name, p.attrs.value]);
    expect(props(report({ status: "limit", exitCode: 8, gates: [report().gates[0]] }))).toEqual([
      ["yolo.status", "limit"],
      ["yolo.limit", "time"],
      ["yolo.exitCode", "8"],
    ]);
    expect(props(report({ status: "passed", exitCode: 0, gates: [report().gates[0]] }))).toEqual([
      ["yolo.status", "passed"],
      ["yolo.exitCode", "0"],
    ]);
  });

  it("marks a timed-out gate as a timeout failure", () => {
    const data = report();
    data.gates = [{ ...data.gates[0], timedOut: true, exitCode: null }];
    expect(findAll(parseXml(renderJunit(data)), "failure")[0].attrs).toMatchObject({ type: "timeout", message: "`npm test` timed out: 1 passed, 1 failed" });
  });
});

describe("reports that match the verdict (per-test results against the baseline)", () => {
  // The baseline: "adds" and "keeps" pass, "target" and "net" fail. Attempt 1 regressed "keeps" and left the target
  // failing (blocked); attempt 2 fixed the target, "keeps" passes again, "net" is a declared known failure.
  const baselineGates = [
    {
      name: "test",
      passed: false,
      passedCount: 2,
      failedCount: 2,
      tests: [
        { id: "test/a.test.js > adds", status: "passed" as const },
        { id: "test/a.test.js > keeps", status: "passed" as const },
        { id: "test/a.test.js > target", status: "failed" as const },
        { id: "net", status: "failed" as const },
      ],
    },
  ];
  const attempt1 = gate({
    passed: false,
    exitCode: 1,
    blocking: true,
    regressions: ["test/a.test.js > keeps"],
    preExisting: ["test/a.test.js > target", "net"],
    logFile: ".yolo/threads/t1/gates/attempt-1-test.log",
  });
  const attempt2 = gate({
    attempt: 2,
    passed: false,
    exitCode: 1,
    blocking: false,
    fixed: ["test/a.test.js > target"],
    newPassing: ["test/b.test.js > added"],
    knownFailures: [{ id: "net", declaredIn: "--known-failure" }],
    tail: "not ok - net",
    logFile: ".yolo/threads/t1/gates/attempt-2-test.log",
  });
  const judged = (over: Partial<ReportData> = {}) => {
    const data = report();
    const withTests = collectReport({
      threadId: "t1",
      row: null,
      values: {
        ...({ requirement: "r", stories: [], decisions: [], acceptanceCriteria: [], notes: {}, filesChanged: [], reviews: [] } as object),
        lastGates: [attempt2],
        gateHistory: [attempt1, attempt2].map(({ tail: _t, ...g }) => g),
        failureRulings: [],
        usage: usage(0, 0, 0),
        usageByNode: {},
        fixAttempts: 1,
      } as never,
      waitingOn: null,
      diffstat: null,
      diffNote: null,
      price: null,
      readLog: () => "log",
      baselineGates,
    });
    return {
      ...data,
      status: "passed",
      exitCode: 0,
      reason: "completed: 1/1 gates passed (fixed: target), verdict PASS",
      ...over,
      tests: withTests.tests,
      gates: withTests.gates,
    };
  };

  it("Markdown: a blocking attempt reads blocked with its regressions and targets; the final state of each test that changed", () => {
    const md = renderMarkdown(judged());
    expect(md).toContain(
      "| 1 | test | `npm test` | ⛔ blocked (failed, exit 1) | 2 passed, 0 failed | regressed (passed at the baseline): test/a.test.js > keeps · still failing: test/a.test.js > target; net | 1.5 s |",
    );
    expect(md).toContain(
      "| 2 | test | `npm test` | ⚠️ failed (exit 1), not blocking | 2 passed, 0 failed | known failure: net · fixed: test/a.test.js > target | 1.5 s |",
    );
    expect(md).toContain("Tests at the end of the run: 2 tests passing as at the baseline; the others:");
    expect(md).toContain("| `test/a.test.js > target` | test | fixed |");
    expect(md).toContain("| `net` | test | known failure (--known-failure) |");
    expect(md).toContain("| `test/b.test.js > added` | test | new, passing |");
  });

  it("JUnit: one testcase per test in its final state, classname from gate and file, skipped for a known failure", () => {
    const xml = parseXml(renderJunit(judged()));
    expect(xml.attrs).toMatchObject({ tests: "5", failures: "0" });
    const suite = findAll(xml, "testsuite")[0];
    expect(suite.attrs).toMatchObject({ name: "yolo gate test", tests: "5", failures: "0", skipped: "1" });
    const cases = findAll(xml, "testcase").map((c) => [c.attrs.classname, c.attrs.name, c.children.map((x) => x.tag)]);
    expect(cases).toEqual([
      ["test.test/a.test.js", "adds", []],
      ["test.test/a.test.js", "keeps", []],
      ["test.test/a.test.js", "target", []],
      ["test", "net", ["skipped"]],
      ["test.test/b.test.js", "added", []],
    ]);
    expect(findAll(xml, "skipped")[0].attrs.message).toBe("known failure, declared in --known-failure");
    // The attempts stay visible: the first one blocked, with why.
    const attempts = findAll(suite, "property").filter((p) => p.attrs.name.startsWith("yolo.attempt."));
    expect(attempts[0].attrs.value).toMatch(/^blocked: regressed \(passed at the baseline\): test\/a\.test\.js > keeps \| still failing/);
  });

  it("JUnit: a regression and a target still failing at the end are failures a CI viewer shows red", () => {
    const data = judged();
    const last = { ...data.gates[0], attempt: 2, blocking: true, output: "not ok - keeps" };
    const xml = parseXml(renderJunit({ ...data, tests: collectReport({ ...inputFor(last) }).tests, gates: [data.gates[0], last] }));
    const failures = findAll(xml, "failure").map((f) => f.attrs.message);
    expect(failures).toEqual(["regressed: passed at the baseline", "still failing: failing before the run", "still failing: failing before the run"]);
    expect(xml.attrs).toMatchObject({ failures: "3" });
  });

  function inputFor(last: ReportData["gates"][number]) {
    return {
      threadId: "t1",
      row: null,
      values: {
        requirement: "r",
        stories: [],
        decisions: [],
        acceptanceCriteria: [],
        notes: {},
        filesChanged: [],
        reviews: [],
        lastGates: [],
        gateHistory: [last],
        usage: usage(0, 0, 0),
        usageByNode: {},
      } as never,
      waitingOn: null,
      diffstat: null,
      diffNote: null,
      price: null,
      readLog: () => null,
      baselineGates,
    };
  }

  it('the headline of a baseline: "report" run is "passed with N pre-existing failures", never a bare "passed"', () => {
    const md = renderMarkdown(judged({ reason: "completed: 0/1 gates passed (2 pre-existing failures: a; b), verdict PASS" }));
    expect(md).toMatch(/^## ⚠️ yolo passed with 2 pre-existing failures — thread `t1`/);
  });
});

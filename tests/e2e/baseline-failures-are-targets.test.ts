import { execFileSync } from "node:child_process";
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "vitest";
import { describeResult, parseEvents, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, BAD_ADD, call, director, GOOD_ADD, handoff, pmDone, teaSays, type Turn } from "../helpers/director.js";
import { mockWith, project, tempDir } from "../helpers/per-test.js";
import { findAll, parseXml } from "../helpers/xml.js";

// The most common task: a test fails at the start; make it pass. add.js subtracts, so "adds two numbers" fails at
// the baseline while "adds zero" passes; a second file holds a test broken for a reason outside the task.
const REQ = "Make the failing test in test/add.test.js pass";
const ADD_TEST = `import { test } from "node:test";
import assert from "node:assert/strict";
import { add } from "../src/add.js";

test("adds two numbers", () => {
  assert.equal(add(2, 3), 5);
});

test("adds zero", () => {
  assert.equal(add(0, 0), 0);
});
`;
const NET_TEST = `import { test } from "node:test";
import assert from "node:assert/strict";

test("reaches the network", () => {
  assert.fail("no network in this sandbox");
});
`;
// The runs whose gate is the project's own tests name them as a configured gate (--test-cmd): what makes a failing test
// a target is the same whatever starts the runner, and npm's own start was a quarter of each gate run's CPU. A target
// read through `npm test` stays proven here by the vendored project (its detected `npm test`) and the "baseline:
// report" case (a configured `npm test`).
const GATE = ["--test-cmd", "node --test test/"];
const files = (extra: Record<string, string> = {}) => ({ "src/add.js": BAD_ADD, "test/add.test.js": ADD_TEST, ...extra });

const nothing: Turn[] = [handoff({ summary: "looked, changed nothing", files_changed: [] })];
const fixes = (claims?: string[]): Turn[] => [
  call("write_file", { path: "src/add.js", content: GOOD_ADD }),
  handoff({ summary: "add now adds", files_changed: ["src/add.js"], ...(claims ? { unrelated_failures: claims } : {}) }),
];
const script = (dev: Turn[], tea = 3) =>
  director({ analyst: [analystDone], pm: [pmDone(false)], dev, tea: Array.from({ length: tea }, () => teaSays("PASS")) });
// A small vendored project (an HTTP Range header parser) whose bug's upstream-style test fails at the baseline:
// "bytes=x-100" is read as a suffix range instead of a malformed header.
const BYTE_RANGE = fileURLToPath(new URL("../fixtures/byte-range/", import.meta.url));
// The vendored project as its own git repository, nothing else in it.
function vendored(onTestFinished: Parameters<typeof tempDir>[0]): string {
  const root = tempDir(onTestFinished, "yolo-byte-range-");
  cpSync(BYTE_RANGE, root, { recursive: true });
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "byte-range 0.3.1");
  return root;
}
const RANGE_JS = readFileSync(join(BYTE_RANGE, "src/range.js"), "utf8");
const SUFFIX = "    if (Number.isNaN(start)) {\n";
// Plausible but wrong: a non-numeric start is called unsatisfiable (-1), not malformed (-2).
const WRONG_RANGE = RANGE_JS.replace(SUFFIX, `${SUFFIX}      if (first.trim() !== "") return -1;\n`);
const RIGHT_RANGE = RANGE_JS.replace(SUFFIX, `${SUFFIX}      if (first.trim() !== "") return -2;\n`);
const TARGET = "parseRange > should return -2 for invalid start byte position";
const messagesOf = (body: unknown) =>
  ((body as { messages?: Array<{ content?: unknown }> }).messages ?? [])
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
    .join("\n");
const ended = (stdout: string) => parseEvents(stdout).findLast((e) => e.type === "run.completed");

describe.concurrent("a test failing at the baseline is the task's target", { timeout: 180_000 }, () => {
  it("dev does not fix it: exit 1 naming it still failing, nothing the change broke; the reports say so", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, files());
    const mock = await mockWith(onTestFinished, script([...nothing, ...nothing]));
    const r = await runYolo(["run", "--ci", "--json", "--max-fix-attempts", "1", ...GATE, REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(1);
    const done = ended(r.stdout);
    expect(done?.type === "run.completed" && done.reason).toMatch(
      /^gate test still failing: 1 test that was failing before the run \(adds two numbers\); nothing the change broke \(after 1 fix attempt\)$/,
    );
    const gate = parseEvents(r.stdout).findLast((e) => e.type === "gate.result");
    expect(gate?.type === "gate.result" && gate.gate).toMatchObject({ blocking: true, preExisting: ["adds two numbers"] });
    const thread = threadIdFrom(r.stdout);

    const md = await runYolo(["report", thread], { cwd: root });
    expect(md.stdout).toMatch(/^## ❌ yolo failed/);
    expect(md.stdout).toMatch(
      /\| 1 \| test \| `node --test test\/` \| ⛔ blocked \(failed, exit 1\) \| 1 passed, 1 failed · structured report \| still failing: adds two numbers \|/,
    );
    expect(md.stdout).not.toMatch(/\| [12] \| test \| `node --test test\/` \| ✅ passed/);
    // What a CI test viewer shows: the tests, the target red with why.
    const xml = parseXml((await runYolo(["report", thread, "--format", "junit"], { cwd: root })).stdout);
    const cases = findAll(xml, "testcase");
    expect(cases.map((c) => c.attrs.name).sort()).toEqual(["adds two numbers", "adds zero"]);
    const red = cases.find((c) => c.attrs.name === "adds two numbers");
    expect(red && findAll(red, "failure")[0]?.attrs.message).toBe("still failing: failing before the run");
    expect(findAll(cases.find((c) => c.attrs.name === "adds zero") ?? xml, "failure")).toEqual([]);
    expect(xml.attrs).toMatchObject({ tests: "2", failures: "1" });
  });

  it("dev fixes it on the second attempt: exit 0 with fixed: …; the first attempt reads blocked in the report", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, files());
    const mock = await mockWith(onTestFinished, script([...nothing, ...fixes()]));
    const r = await runYolo(["run", "--ci", "--no-tui", ...GATE, REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(r.stdout).toMatch(/run passed \(exit 0\)[^\n]*: completed: 1\/1 gates passed \(fixed: adds two numbers\), verdict PASS/);
    // dev's fix prompt told it which tests were failing before the run, apart from any regressions.
    const second = mock.requests.filter((q) => JSON.stringify(q.body).includes("Fix attempt 1"));
    expect(JSON.stringify(second[0]?.body)).toContain("Already failing before the run (the task's targets: make them pass");
    const thread = /thread ([a-z0-9]+)/i.exec(r.stdout)?.[1] ?? "";
    const md = await runYolo(["report", thread], { cwd: root });
    expect(md.stdout).toMatch(/^## ✅ yolo passed/);
    expect(md.stdout).toMatch(/\| 1 \| test \| `node --test test\/` \| ⛔ blocked \(failed, exit 1\) \|/);
    expect(md.stdout).toMatch(/\| 2 \| test \| `node --test test\/` \| ✅ passed \| 2 passed, 0 failed · structured report \| fixed: adds two numbers \|/);
    expect(md.stdout).toContain("| `adds two numbers` | test | fixed |");
  });

  it("an unrelated failing test declared with --known-failure: exit 0, reported as known (skipped in JUnit)", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, files({ "test/net.test.js": NET_TEST }));
    const mock = await mockWith(onTestFinished, script(fixes()));
    const r = await runYolo(["run", "--ci", "--json", "--known-failure", "reaches the*", ...GATE, REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const done = ended(r.stdout);
    expect(done?.type === "run.completed" && done.reason).toContain(
      "(fixed: adds two numbers) (1 known failure: reaches the network, declared in --known-failure)",
    );
    const xml = parseXml((await runYolo(["report", threadIdFrom(r.stdout), "--format", "junit"], { cwd: root })).stdout);
    const net = findAll(xml, "testcase").find((c) => c.attrs.name === "reaches the network");
    expect(net && findAll(net, "skipped")[0]?.attrs.message).toBe("known failure, declared in --known-failure");
    expect(xml.attrs).toMatchObject({ tests: "3", failures: "0" });
  });

  it("dev claims a failing test is unrelated: a human is asked (exit 3 under --ci); --approve → exit 0, the acceptance recorded", async ({
    expect,
    onTestFinished,
  }) => {
    const root = project(onTestFinished, files({ "test/net.test.js": NET_TEST }));
    const mock = await mockWith(onTestFinished, script(fixes(["reaches the network"])));
    const r = await runYolo(["run", "--ci", "--json", ...GATE, REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(3);
    const ask = parseEvents(r.stdout).find((e) => e.type === "interrupt");
    expect(ask).toMatchObject({ kind: "approval", node: "tea" });
    expect(ask?.type === "interrupt" && ask.question).toContain(
      "dev says a test that was failing before the run is unrelated to the task, and it still fails as at the baseline: reaches the network (gate test)",
    );
    expect(ask?.type === "interrupt" && ask.artifact).toContain("- reaches the network (gate test)");
    const thread = threadIdFrom(r.stdout);

    const resumed = await runYolo(["resume", thread, "--ci", "--json", "--approve"], { cwd: root, baseURL: mock.url });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    const done = ended(resumed.stdout);
    expect(done).toMatchObject({ acceptedFailures: [{ id: "reaches the network", gate: "test", by: "tea" }] });
    expect(done?.type === "run.completed" && done.reason).toContain("reaches the network, declared in a human's approval at tea");
    const shown = await runYolo(["show", thread], { cwd: root });
    expect(shown.stdout).toContain("- reaches the network (gate test): accepted as a known failure at tea");
    const md = await runYolo(["report", thread], { cwd: root });
    expect(md.stdout).toContain(
      "**Accepted by a human as known failures** (dev said they are not part of the task): `reaches the network` (gate test, at tea)",
    );
  });

  it("--reject: the claimed test stays a target, dev reads the human's reason, and the run ends exit 1 still failing", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, files({ "test/net.test.js": NET_TEST }));
    const mock = await mockWith(onTestFinished, script([...fixes(["reaches the network"]), ...nothing]));
    const r = await runYolo(["run", "--ci", "--json", "--max-fix-attempts", "1", ...GATE, REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(3);
    const thread = threadIdFrom(r.stdout);
    const resumed = await runYolo(["resume", thread, "--ci", "--json", "--max-fix-attempts", "1", "--reject", "the network test is part of this task"], {
      cwd: root,
      baseURL: mock.url,
    });
    expect(resumed.exitCode, describeResult(resumed)).toBe(1);
    const done = ended(resumed.stdout);
    expect(done?.type === "run.completed" && done.reason).toContain("still failing: 1 test that was failing before the run (reaches the network)");
    expect(done).not.toHaveProperty("acceptedFailures");
    const fix = mock.requests.filter((q) => JSON.stringify(q.body).includes("Fix attempt 1")).at(0);
    expect(JSON.stringify(fix?.body)).toContain("a human refused your claim that it is unrelated: the network test is part of this task");
  });

  it('baseline: "report" keeps the old behaviour, worded "passed with 1 pre-existing failure" everywhere', async ({ expect, onTestFinished }) => {
    const config = 'export default { gates: [{ name: "test", command: "npm test", baseline: "report" }] };\n';
    const root = project(onTestFinished, files({ "yolo.config.ts": config }));
    const mock = await mockWith(onTestFinished, script(nothing));
    const r = await runYolo(["run", "--ci", "--no-tui", REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(r.stdout).toMatch(/run passed with 1 pre-existing failure \(exit 0\)/);
    expect(r.stdout).not.toMatch(/run passed \(exit 0\)/);
    const thread = /thread ([a-z0-9]+)/i.exec(r.stdout)?.[1] ?? "";
    const md = await runYolo(["report", thread], { cwd: root });
    expect(md.stdout).toMatch(/^## ⚠️ yolo passed with 1 pre-existing failure — thread/);
    const shown = await runYolo(["show", thread], { cwd: root });
    expect(shown.stdout).toMatch(/^Thread \S+ — passed with 1 pre-existing failure: /);
    const listed = await runYolo(["threads"], { cwd: root });
    expect(listed.stdout).toMatch(new RegExp(`${thread} +run +passed with 1 pre-existing failure `));
    const log = readFileSync(join(root, ".yolo", "threads", thread, "gates", "attempt-1-test.log"), "utf8");
    expect(log).toContain("adds two numbers");
  });

  it("revert and refix on a vendored project: a wrong first fix is sent back with the target's own failure, the second passes", async ({
    expect,
    onTestFinished,
  }) => {
    expect(WRONG_RANGE).not.toBe(RANGE_JS);
    expect(RIGHT_RANGE).not.toBe(RANGE_JS);
    const root = vendored(onTestFinished);
    const attempt = (content: string, summary: string): Turn[] => [
      call("write_file", { path: "src/range.js", content }),
      handoff({ summary, files_changed: ["src/range.js"] }),
    ];
    const dev = [...attempt(WRONG_RANGE, "a non-numeric start is not a suffix range"), ...attempt(RIGHT_RANGE, "a non-numeric start is malformed: -2")];
    const mock = await mockWith(onTestFinished, script(dev));
    const r = await runYolo(["run", "--ci", "--no-tui", "Fix the failing test in test/range.test.js: bytes=x-100 must be rejected as malformed"], {
      cwd: root,
      baseURL: mock.url,
    });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`run passed \\(exit 0\\)[^\\n]*: completed: 1/1 gates passed \\(fixed: ${TARGET}\\)`));
    expect(readFileSync(join(root, "src/range.js"), "utf8")).toBe(RIGHT_RANGE);
    // dev's second request: the target's own failure in the wrong attempt (-1, not -2) and at the baseline (a range).
    const devAsks = mock.requests.filter((q) => messagesOf(q.body).includes("Fix attempt 1"));
    const text = messagesOf(devAsks[0]?.body);
    const own = text.indexOf(`#### Target still failing: ${TARGET}`);
    expect(own, text).toBeGreaterThan(text.indexOf("Already failing before the run (the task's targets"));
    const now = text.slice(own, text.indexOf("at the baseline, before the run", own));
    // Fenced as data; the source attribute escapes the name's ">".
    expect(now).toContain(`<data source="failure of \`${TARGET.replace(">", "&gt;")}\` in this run">`);
    // node's spec reporter (yolo asks for it on stdout, its junit report beside it).
    expect(now).toMatch(/✖ should return -2 for invalid start byte position[\s\S]*actual: -1,\n\s*expected: -2/);
    expect(now).not.toContain("should parse a suffix range");
    const then = text.slice(text.indexOf("at the baseline, before the run", own));
    expect(then).toMatch(/actual: \[ \{ start: 100, end: 199 \} \],\n\s*expected: -2/);
  });
});

import { describe, it } from "vitest";
import { describeResult, parseEvents, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, BAD_ADD, call, director, GOOD_ADD, handoff, pmDone, teaSays, type Turn } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";

// What a human says inside tea's gate check (a ruling on dev's claim that a failing test is unrelated, an approved
// gate change) is said before tea's model answers. It is the thread's state from then on, whether tea gives a
// verdict or escalates first: `show` lists it and the human is not asked about it again.
const REQ = "Make the failing test in test/add.test.js pass";
const ADD_TEST = `import { test } from "node:test";
import assert from "node:assert/strict";
import { add } from "../src/add.js";

test("adds two numbers", () => {
  assert.equal(add(2, 3), 5);
});
`;
const NET_TEST = `import { test } from "node:test";
import assert from "node:assert/strict";

test("reaches the network", () => {
  assert.fail("no network in this sandbox");
});
`;
const FILES = { "src/add.js": BAD_ADD, "test/add.test.js": ADD_TEST, "test/net.test.js": NET_TEST };
const dev: Turn[] = [
  call("write_file", { path: "src/add.js", content: GOOD_ADD }),
  handoff({ summary: "add now adds", files_changed: ["src/add.js"], unrelated_failures: ["reaches the network"] }),
];
const RULED = "- reaches the network (gate test): accepted as a known failure at tea";
const CLAIM = "unrelated to the task";
const asked = (stdout: string) => parseEvents(stdout).filter((e) => e.type === "interrupt" && e.question.includes(CLAIM)).length;
const ended = (stdout: string) => parseEvents(stdout).findLast((e) => e.type === "run.completed");

const ESCALATES = [handoff({ escalate_to_human: true, question: "Should add accept strings?" }), teaSays("PASS")];
const escalated = (stdout: string) => parseEvents(stdout).findLast((e) => e.type === "interrupt");

describe.concurrent("a human's word in a gate check is the thread's state once said", { timeout: 180_000 }, () => {
  it("tea escalates after the ruling: show lists the ruling, and after the answer the claim is not asked again", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, FILES);
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev, tea: ESCALATES }));
    const r = await runYolo(["run", "--ci", "--json", REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(3);
    expect(asked(r.stdout)).toBe(1);
    const thread = threadIdFrom(r.stdout);

    const approved = await runYolo(["resume", thread, "--ci", "--json", "--approve"], { cwd: root, baseURL: mock.url });
    expect(approved.exitCode, describeResult(approved)).toBe(3);
    expect(escalated(approved.stdout)).toMatchObject({ kind: "question", question: "Should add accept strings?" });
    const shown = await runYolo(["show", thread], { cwd: root });
    expect(shown.stdout).toContain(RULED);

    const answered = await runYolo(["resume", thread, "--ci", "--json", "--answer", "Numbers only"], { cwd: root, baseURL: mock.url });
    expect(answered.exitCode, describeResult(answered)).toBe(0);
    expect(asked(answered.stdout)).toBe(0);
    expect(ended(answered.stdout)).toMatchObject({ acceptedFailures: [{ id: "reaches the network", gate: "test", by: "tea" }] });
  });

  it("tea escalates after a gate change was approved: show lists the approval, and after the answer it is not asked again", async ({
    expect,
    onTestFinished,
  }) => {
    const root = project(onTestFinished);
    const script = `node --test --test-reporter=spec test/`;
    const devChangesGate = [
      call("write_file", { path: "src/add.js", content: GOOD_ADD }),
      call("write_file", { path: "package.json", content: JSON.stringify({ name: "demo", type: "module", scripts: { test: script } }) }),
      handoff({ summary: "done", files_changed: ["src/add.js", "package.json"] }),
    ];
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devChangesGate, tea: ESCALATES }));
    const r = await runYolo(["run", "--ci", "--json", REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(3);
    expect(escalated(r.stdout)).toMatchObject({ kind: "approval", node: "tea" });
    const thread = threadIdFrom(r.stdout);

    const approved = await runYolo(["resume", thread, "--ci", "--json", "--approve"], { cwd: root, baseURL: mock.url });
    expect(approved.exitCode, describeResult(approved)).toBe(3);
    expect(escalated(approved.stdout)).toMatchObject({ kind: "question", question: "Should add accept strings?" });
    const shown = await runYolo(["show", thread], { cwd: root });
    expect(shown.stdout).toMatch(/gate change approved by a human: package\.json scripts\.test changed/);

    const answered = await runYolo(["resume", thread, "--ci", "--json", "--answer", "Numbers only"], { cwd: root, baseURL: mock.url });
    expect(answered.exitCode, describeResult(answered)).toBe(0);
    expect(parseEvents(answered.stdout).filter((e) => e.type === "interrupt")).toEqual([]);
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readRunFacts } from "../../../src/eval/run-events.js";
import { taskDefinition } from "../../../src/eval/task-definition.js";
import { planTask, startAfresh, taskFiles } from "../../../src/eval/task-plan.js";
import type { EvalTask } from "../../../src/eval/types.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const TASK = {
  v: 1,
  id: "t1",
  commit: "c",
  parent: "p",
  requirement: "Fix add",
  testFiles: ["test/add.test.js"],
  sourceFiles: ["src/math.js"],
  gates: [{ name: "test", command: "npm test", required: true, timeoutS: 60 }],
  targets: ["test: add sums"],
  guards: ["test: truth"],
} as EvalTask;
const SETTING = { model: { label: "m", name: "m" }, prompts: "p1", config: "c1", tests: "hidden" as const };

const line = (e: Record<string, unknown>) => `${JSON.stringify(e)}\n`;
const started = (ts: string) => line({ type: "run.started", thread: "th", ts });
const completed = (ts: string, exitCode: number) => line({ type: "run.completed", ts, exitCode, status: "x", reason: `exit ${exitCode}`, usage: {} });

/** A task that ran before: its definition recorded, its worktree there, `events` as its legs wrote them. */
function ranBefore(events: string) {
  const base = mkdtempSync(join(tmpdir(), "yolo-eval-plan-"));
  dirs.push(base);
  const files = taskFiles(base, "t1");
  startAfresh(files, taskDefinition(TASK, SETTING));
  mkdirSync(join(files.dir, ".git"), { recursive: true });
  writeFileSync(files.start, "abc\n");
  writeFileSync(files.events, events);
  return files;
}

describe("whether a task's earlier run is reused, resumed or started again", () => {
  it("reuses a judged result only while the task and what it runs with are unchanged, naming what changed", () => {
    const files = ranBefore(started("2026-01-01T00:00:00Z") + completed("2026-01-01T00:00:05Z", 0));
    writeFileSync(files.result, JSON.stringify({ task: "t1", verdict: "resolved" }));
    expect(planTask(files, taskDefinition(TASK, SETTING))).toMatchObject({ kind: "reuse", result: { verdict: "resolved" } });
    const edited = taskDefinition({ ...TASK, requirement: "Fix add, and keep it pure", guards: [] }, { ...SETTING, prompts: "p2" });
    expect(planTask(files, edited)).toEqual({ kind: "fresh", why: "task changed since its last result: requirement, guards, prompts" });
    const otherModel = taskDefinition(TASK, { ...SETTING, model: { label: "m", name: "m2" } });
    expect(planTask(files, otherModel)).toEqual({ kind: "fresh", why: "task changed since its last result: model" });
    // A result measured with the tests hidden says nothing of a run that saw them, and the other way round.
    const visible = taskDefinition(TASK, { ...SETTING, tests: "visible" });
    expect(planTask(files, visible)).toEqual({ kind: "fresh", why: "task changed since its last result: tests" });
  });

  it("resumes a provider error or an interrupt, starts a crash again, and judges a run that ended before its eval did", () => {
    const def = taskDefinition(TASK, SETTING);
    const run = (exit: number) => planTask(ranBefore(started("2026-01-01T00:00:00Z") + completed("2026-01-01T00:00:02Z", exit)), def);
    expect(run(5)).toMatchObject({ kind: "resume", thread: "th", why: "its last run ended with exit 5 (exit 5)" });
    expect(run(130)).toMatchObject({ kind: "resume", thread: "th" });
    expect(run(70)).toEqual({ kind: "fresh", why: "its last run ended with exit 70 (exit 70)" });
    expect(run(1)).toMatchObject({ kind: "judge" });
    expect(planTask(ranBefore(started("2026-01-01T00:00:00Z")), def)).toMatchObject({ kind: "resume", why: null });
  });

  it("counts every leg's time from the events, a killed leg up to its last event", () => {
    const file = ranBefore(
      started("2026-01-01T00:00:00Z") +
        line({ type: "node.started", ts: "2026-01-01T00:00:04Z" }) +
        "{half a line\n" +
        started("2026-01-01T01:00:00Z") +
        completed("2026-01-01T01:00:03Z", 0),
    ).events;
    expect(readRunFacts(file, () => false).legsMs).toBe(7000);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readTasks, toJsonl } from "../../../src/eval/task-file.js";

const TASK = {
  v: 1,
  id: "abc123",
  commit: "c".repeat(40),
  parent: "p".repeat(40),
  requirement: "Fix add",
  testFiles: ["test/add.test.js"],
  sourceFiles: ["src/add.js"],
  gates: [{ name: "test", command: "npm test", required: true, timeoutS: 600 }],
  targets: ["test: add sums"],
  guards: [],
};

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function fileWith(lines: unknown[]): string {
  dir = mkdtempSync(join(tmpdir(), "yolo-tasks-"));
  const file = join(dir, "tasks.jsonl");
  writeFileSync(file, lines.map((l) => (typeof l === "string" ? `${l}\n` : toJsonl([l]))).join(""));
  return file;
}

describe("a task file, reviewed and edited by hand, is read back or refused naming every bad line", () => {
  it("reads the tasks it wrote", () => {
    expect(readTasks(fileWith([TASK, { ...TASK, id: "def456" }])).map((t) => t.id)).toEqual(["abc123", "def456"]);
  });

  it("reads a mutant's visible targets, and refuses one naming a test that is not among its targets", () => {
    const split = { ...TASK, id: "mut", targets: ["test: a", "test: b"], visibleTargets: ["test: a"] };
    expect(readTasks(fileWith([split]))[0].visibleTargets).toEqual(["test: a"]);
    expect(() => readTasks(fileWith([{ ...split, visibleTargets: ["test: c"] }]))).toThrow(
      /line 1: "visibleTargets" names "test: c", which is not one of its "targets"/,
    );
  });

  it("reads a canary, and refuses one whose original commit is not a full commit id (it is handed to git)", () => {
    const canary = { ...TASK, id: "can", canary: { original: "a".repeat(40), description: "t.test.js:3: 5 → 6" } };
    expect(readTasks(fileWith([canary]))[0].canary?.original).toBe("a".repeat(40));
    const bad = fileWith([{ ...canary, canary: { original: "--output=/tmp/x", description: "" } }]);
    expect(() => readTasks(bad)).toThrow(/line 1: "canary" must be \{ original: <full commit id>, description \}/);
  });

  it("refuses a path out of the project, a duplicate id, no targets and broken JSON, all at once", () => {
    const file = fileWith([{ ...TASK, testFiles: ["../../etc/passwd"] }, TASK, TASK, { ...TASK, id: "x", targets: [] }, "{not json"]);
    expect(() => readTasks(file)).toThrow(
      /line 1: "..\/..\/etc\/passwd" is not a path inside the project[\s\S]*line 3: "id" "abc123" is used by an earlier line[\s\S]*line 4: "targets" is empty[\s\S]*line 5: not JSON/,
    );
  });

  it("refuses another format version and an id that is not a file name", () => {
    expect(() => readTasks(fileWith([{ ...TASK, v: 2 }]))).toThrow(/format version 2, expected 1/);
    expect(() => readTasks(fileWith([{ ...TASK, id: "../x" }]))).toThrow(/"id" "..\/x" may use only/);
  });
});

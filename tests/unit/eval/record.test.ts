import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { legArgs } from "../../../src/eval/child-run.js";
import { missingSessions, recordedModels, sessionArgs, sessionFile, writeSessionManifest } from "../../../src/eval/record.js";
import type { EvalTask } from "../../../src/eval/types.js";

const dirs: string[] = [];
const scratch = () => {
  const d = mkdtempSync(join(tmpdir(), "yolo-eval-record-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const task = (id: string) => ({ id }) as EvalTask;

describe("an eval's recorded sessions", () => {
  it("give each task run its own session file, the flag before the requirement's `--`", () => {
    expect(sessionFile("/s", "org/model:tag", "abc")).toBe("/s/org_model_tag/abc.jsonl");
    expect(sessionArgs(null, "m", "t")).toEqual([]);
    const spec = {
      self: [],
      env: {},
      runArgs: () => [],
      resumeArgs: () => [],
      taskFlags: (label: string, id: string) => sessionArgs({ kind: "replay", dir: "/s" }, label, id),
    };
    expect(legArgs(spec, ["run", "--ci", "--", "--fix it"], "m", "t")).toEqual(["run", "--replay", "/s/m/t.jsonl", "--ci", "--", "--fix it"]);
    expect(legArgs({ ...spec, taskFlags: undefined }, ["resume", "th"], "m", "t")).toEqual(["resume", "th"]);
  });

  it("name the task runs a replay has no session for, and the models the recording holds", () => {
    const dir = scratch();
    const models = [
      { label: "a", name: "a" },
      { label: "b", name: null },
    ];
    writeSessionManifest(dir, models);
    mkdirSync(join(dir, "a"));
    writeFileSync(sessionFile(dir, "a", "t1"), "{}\n");
    expect(recordedModels(dir)).toEqual({ models });
    expect(missingSessions(dir, [task("t1"), task("t2")], models)).toEqual(["a: t2", "b: t1", "b: t2"]);
  });

  it("refuse a manifest that is not one, saying which file", () => {
    const dir = scratch();
    writeFileSync(join(dir, "eval-session.json"), JSON.stringify({ v: 9, models: [] }));
    expect(recordedModels(dir)).toEqual({ error: expect.stringMatching(/eval-session\.json \(not a version 1 manifest\)/) });
    expect(recordedModels(scratch())).toEqual({ error: expect.stringMatching(/cannot read .*eval-session\.json/) });
  });
});

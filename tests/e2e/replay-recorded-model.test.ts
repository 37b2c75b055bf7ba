import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "vitest";
import { describeResult, parseEvents, runYolo } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";

const REQ = "Add an add(a, b) function to src/add.js";

describe.concurrent("--replay and the model name", { timeout: 240_000 }, () => {
  it("with no model configured, a replay uses the recording's model; a different configured model still refuses", async ({ expect, onTestFinished }) => {
    const dir = mkdtempSync(join(tmpdir(), "yolo-session-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const session = join(dir, "session.jsonl");
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    const recorded = await runYolo(["run", "--ci", "--json", "--record", session, "--model", "qwen2.5-coder:7b", REQ], {
      cwd: project(onTestFinished),
      baseURL: mock.url,
    });
    expect(recorded.exitCode, describeResult(recorded)).toBe(0);
    expect(mock.requests[0].model).toBe("qwen2.5-coder:7b");

    const replayed = await runYolo(["run", "--ci", "--json", "--replay", session, REQ], { cwd: project(onTestFinished) });
    expect(replayed.exitCode, describeResult(replayed)).toBe(0);
    expect(parseEvents(replayed.stdout).at(-1)).toMatchObject({ type: "run.completed", exitCode: 0 });

    const other = await runYolo(["run", "--ci", "--json", "--replay", session, REQ], { cwd: project(onTestFinished), env: { YOLO_MODEL: "gpt-4o-mini" } });
    expect(other.exitCode, describeResult(other)).toBe(5);
    expect(other.stderr).toMatch(/model differs at character 0: recorded "qwen2\.5-coder:7b", now "gpt-4o-mini"/);
  });
});

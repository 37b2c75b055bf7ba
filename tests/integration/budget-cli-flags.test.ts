import { describe, expect, it } from "vitest";
import { describeResult, rolesOf, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, pmDone, teaSays, type Turn } from "../helpers/director.js";
import { startMockOpenAI, type ScriptedReply } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach();

const priced = (turns: Turn[]): Turn[] => turns.map((t) => ({ ...(t as ScriptedReply), usage: { prompt_tokens: 1000, completion_tokens: 100 } }));

describe("--max-tokens through the binary", { timeout: 240_000 }, () => {
  it("exits 7 at the budget and `yolo resume --max-tokens` raises it to finish the thread", async () => {
    const project = makeProject();
    const mock = await startMockOpenAI(
      director({ analyst: priced([analystDone]), pm: priced([pmDone(false)]), dev: priced(devWrites(GOOD_ADD)), tea: priced([teaSays("PASS")]) }),
    );
    cleanups.push(project.cleanup, () => mock.close());

    const first = await runYolo(["run", "--json", "--max-tokens", "2000", "Add add()"], { cwd: project.root, baseURL: mock.url });
    expect(first.exitCode, describeResult(first)).toBe(7);
    expect(first.stdout).toContain("token budget: 2200 of 2000 tokens used");
    expect(rolesOf(mock)).toEqual(["analyst", "pm"]);

    const resumed = await runYolo(["resume", threadIdFrom(first.stdout), "--json", "--max-tokens", "100000"], { cwd: project.root, baseURL: mock.url });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    expect(rolesOf(mock)).toEqual(["analyst", "pm", "dev", "dev", "tea"]);
  });

  it("refuses --max-cost without model.price (exit 2) before any call", async () => {
    const project = makeProject();
    const r = await runYolo(["run", "--max-cost", "1", "Add add()"], { cwd: project.root, baseURL: "http://127.0.0.1:9/v1" });
    cleanups.push(project.cleanup);
    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stderr).toContain("needs model.price");
  });
});

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { deferred, describeResult, rolesOf, runYolo, spawnYolo, waitFor } from "../helpers/cli.js";
import { analystDone, BAD_ADD, call, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach("lastFirst");

describe("Ctrl+C twice", () => {
  it("stops at once without waiting for the running step, prints the resume command, and the step runs again on resume", async () => {
    const project = makeProject();
    const held = deferred();
    const mock = await startMockOpenAI(
      director({
        analyst: [analystDone],
        pm: [pmDone(false)],
        // Held until the test ends: only a stop that does not wait for dev can finish the first run.
        dev: [{ ...call("write_file", { path: "src/add.js", content: BAD_ADD }), hold: held.promise }, ...devWrites(GOOD_ADD)],
        tea: [teaSays("PASS")],
      }),
    );
    cleanups.push(project.cleanup, () => mock.close(), held.release);

    const child = spawnYolo(["run", "--no-tui", "Add an add(a, b) function"], { cwd: project.root, baseURL: mock.url });
    let stdout = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    await waitFor(() => rolesOf(mock).includes("dev"), "dev's request to reach the mock");
    child.kill("SIGINT");
    await waitFor(() => stdout.includes("■ stopping after the current step (Ctrl+C again to stop now)"), "the first stop notice");
    child.kill("SIGINT");
    const first = await child;

    expect(first.exitCode, String(first.stdout)).toBe(130);
    const out = String(first.stdout);
    expect(out).toContain("■ stopping now");
    expect(out).toMatch(/■ run interrupted \(exit 130\)/);
    expect(out).not.toMatch(/✔ dev/);
    const thread = /resume: yolo resume (\w+)/.exec(out)?.[1];
    expect(thread, out).toBeDefined();

    const second = await runYolo(["resume", "--json", thread!], { cwd: project.root, baseURL: mock.url });
    expect(second.exitCode, describeResult(second)).toBe(0);
    expect(readFileSync(join(project.root, "src/add.js"), "utf8")).toBe(GOOD_ADD);
    expect(rolesOf(mock)).toEqual(["analyst", "pm", "dev", "dev", "dev", "tea"]);
  });
});

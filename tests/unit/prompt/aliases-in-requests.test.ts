import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { analystDone, BAD_ADD, call, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../../helpers/director.js";
import { runEngine } from "../../helpers/engine.js";
import { startMockOpenAI } from "../../helpers/mock-openai.js";
import { makeProject } from "../../helpers/project.js";
import { cleanupsAfterEach } from "../../helpers/cleanups.js";

const cleanups = cleanupsAfterEach();

describe("real paths never reach the model", () => {
  it("shows @project in command output, error messages and failing test output", async () => {
    const project = makeProject();
    const dir = director({
      analyst: [analystDone],
      pm: [pmDone(false)],
      dev: [
        call("run_command", { command: "pwd; node -e \"require('fs').readFileSync('missing.txt')\"" }),
        call("read_file", { path: "@project/package.json" }),
        ...devWrites(BAD_ADD),
        ...devWrites(GOOD_ADD),
      ],
      tea: [teaSays("PASS"), teaSays("PASS")],
    });
    const mock = await startMockOpenAI(dir);
    cleanups.push(project.cleanup, () => mock.close());
    const { result } = await runEngine({ root: project.root, baseURL: mock.url, threadId: "t-alias", requirement: "Add add()" });
    expect(result.status).toBe("passed");
    const sent = JSON.stringify(mock.requests.map((r) => r.messages));
    expect(sent).toContain("@project");
    expect(sent).toContain('\\"name\\": \\"demo\\"');
    expect(sent).not.toContain(project.root);
    // The real output did carry the path: the transcript on disk (never sent) still has it.
    const transcript = readFileSync(join(project.root, ".yolo/threads/t-alias/transcripts/dev.jsonl"), "utf8");
    expect(transcript).toContain(project.root);
  });
});

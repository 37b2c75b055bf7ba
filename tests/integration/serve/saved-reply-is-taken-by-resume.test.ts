import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/resolve.js";
import { saveReply, type SavedReply } from "../../../src/engine/save-answer.js";
import { openSession } from "../../../src/engine/session.js";
import { cleanupsAfterEach } from "../../helpers/cleanups.js";
import { analystDone, call, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../../helpers/director.js";
import { nodesStarted, readThread, runEngine } from "../../helpers/engine.js";
import { startMockOpenAI } from "../../helpers/mock-openai.js";
import { makeProject } from "../../helpers/project.js";

const cleanups = cleanupsAfterEach("lastFirst");

// Saves a reply as `yolo serve` does: its own session, no run.
async function save(root: string, threadId: string, reply: SavedReply): Promise<void> {
  const config = resolveConfig({ root, fileConfig: {}, file: null, env: {} });
  const session = await openSession(config);
  try {
    await saveReply(config, session, threadId, reply);
  } finally {
    await session.close();
  }
}

describe("a reply saved without running the thread", { timeout: 120_000 }, () => {
  it("refuses a review for a question, keeps the thread waiting; an answer makes it answered, and a plain resume hands it to the agent that asked", async () => {
    const project = makeProject();
    const mock = await startMockOpenAI(
      director({
        analyst: [call("handoff", { escalate_to_human: true, question: "Floats too?" }), analystDone],
        pm: [pmDone(false)],
        dev: devWrites(GOOD_ADD),
        tea: [teaSays("PASS")],
      }),
    );
    cleanups.push(project.cleanup, () => mock.close());
    const first = await runEngine({ root: project.root, baseURL: mock.url, threadId: "t-web", requirement: "Add add()" });
    expect(first.result).toMatchObject({ status: "waiting", exitCode: 3 });

    await expect(save(project.root, "t-web", { review: { action: "approve" } })).rejects.toThrow(/asked a question, not for a review/);
    expect((await readThread(project.root, "t-web")).position.kind).toBe("waiting");
    const requestsBefore = mock.requests.length;

    await save(project.root, "t-web", { answer: "Floats too, from the web view" });
    const answered = await readThread(project.root, "t-web");
    expect(answered.position).toMatchObject({ kind: "answered", answer: "Floats too, from the web view", askedBy: "analyst" });
    expect(mock.requests.length).toBe(requestsBefore);
    await expect(save(project.root, "t-web", { answer: "again" })).rejects.toThrow(/already answered/);

    const resumed = await runEngine({ root: project.root, baseURL: mock.url, threadId: "t-web" });
    expect(resumed.result).toMatchObject({ status: "passed", exitCode: 0 });
    expect(nodesStarted(resumed.events)[0]).toBe("analyst");
    const analystAgain = mock.requests.filter((r) => JSON.stringify(r.messages[0]).includes("You are the analyst agent"))[1];
    expect(JSON.stringify(analystAgain.messages)).toContain("Floats too, from the web view");
    await expect(save(project.root, "t-web", { answer: "late" })).rejects.toThrow(/finished; it is not waiting/);
  });
});

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliRunWords } from "../../src/cli/wording/run-words.js";
import { resolveConfig } from "../../src/config/resolve.js";
import { launch, type LaunchPlan } from "../../src/engine/run/launch.js";
import { readLeg } from "../../src/engine/run/read-early.js";
import { loadSoloAgents } from "../../src/engine/modes.js";
import { openSessionDeferred } from "../../src/engine/session.js";
import { configForProfile } from "../../src/engine/thread-profile.js";
import type { YoloEvent } from "../../src/events/schema.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";
import { director } from "../helpers/director.js";
import { runEngine } from "../helpers/engine.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";

const cleanups = cleanupsAfterEach();

// A finished chat thread on SQLite: resuming it without a message only reports its outcome.
async function finishedChat() {
  const project = makeProject();
  const mock = await startMockOpenAI(director({ chat: [{ content: "It is a demo." }] }));
  cleanups.push(project.cleanup, () => mock.close());
  const ran = await runEngine({ root: project.root, baseURL: mock.url, threadId: "t-read", requirement: "What is this?", profile: { mode: "chat" } });
  expect(ran.result.status).toBe("passed");
  return resolveConfig({ root: project.root, fileConfig: {}, file: null, env: { OPENAI_BASE_URL: mock.url, PATH: process.env.PATH } });
}

describe("a resumed leg reads its thread's latest checkpoint once", () => {
  it("readLeg's read is the leg's: the checkpoint reader is asked once from the read to the leg's outcome", async () => {
    const config = await finishedChat();
    const opened = await openSessionDeferred(config);
    cleanups.push(() => opened.close());
    const index = await opened.rows!();
    let reads = 0;
    // Every read of the thread's checkpoints on SQLite goes through checkpointRows (src/engine/stored-thread.ts).
    const rows = { checkpointRows: (id: string) => (reads++, index.checkpointRows(id)) };
    const repo = (await opened.threads.get("t-read"))!.repo ?? "";
    const base = { config, rows, threads: opened.threads, session: opened.session, threadId: "t-read", repo: Promise.resolve(repo), replay: false };
    const read = await readLeg({ ...base, resume: {} });
    expect(read.position.kind).toBe("finished");
    expect(read.profile).toEqual({ mode: "chat" });
    expect(read.modelless).toBe(false);
    expect(reads).toBe(1);

    const threadConfig = configForProfile(config, read.profile);
    const plan: LaunchPlan = {
      config: threadConfig,
      agents: loadSoloAgents(threadConfig, { mode: "chat" }),
      threads: opened.threads,
      rows,
      session: opened.session,
      facts: { sandbox: undefined, gates: [] },
      env: { PATH: process.env.PATH },
      logFile: join(config.stateDir, "logs", "t-read.log"),
      words: cliRunWords(),
      origin: {},
      // A leg that only reports needs no engine.
      engine: () => Promise.reject(new Error("the engine was not needed")),
      engineAsked: () => null,
    };
    const handle = launch(plan, { threadId: "t-read", resume: {}, read });
    const events: YoloEvent[] = [];
    for await (const event of handle.events) events.push(event);
    expect((await handle.result).status).toBe("passed");
    expect(events.map((e) => e.type)).toEqual(["run.completed"]);
    expect(reads).toBe(1);

    // Without a handed read the leg reads for itself (the lease was released with the first leg).
    const again = launch(plan, { threadId: "t-read", resume: {} });
    for await (const _ of again.events);
    expect((await again.result).status).toBe("passed");
    expect(reads).toBe(2);
  });

  it("read with LangGraph (no checkpoint reader), the leg handed that read asks the checkpointer nothing more", async () => {
    const config = await finishedChat();
    const opened = await openSessionDeferred(config);
    cleanups.push(() => opened.close());
    const session = await opened.session();
    let reads = 0;
    const getTuple = session.checkpointer.getTuple.bind(session.checkpointer);
    // getState reads through getTuple too: every checkpoint read of LangGraph's is counted here.
    session.checkpointer.getTuple = (config) => (reads++, getTuple(config));
    const repo = (await opened.threads.get("t-read"))!.repo ?? "";
    const base = { config, rows: null, threads: opened.threads, session: async () => session, threadId: "t-read", repo: Promise.resolve(repo), replay: false };
    const read = await readLeg({ ...base, resume: {} });
    expect(read.position.kind).toBe("finished");
    // The latest checkpoint for the thread's profile, and getState's own read.
    const before = reads;
    expect(before).toBe(2);

    const threadConfig = configForProfile(config, read.profile);
    const plan: LaunchPlan = {
      config: threadConfig,
      agents: loadSoloAgents(threadConfig, { mode: "chat" }),
      threads: opened.threads,
      rows: null,
      session: async () => session,
      facts: { sandbox: undefined, gates: [] },
      env: { PATH: process.env.PATH },
      logFile: join(config.stateDir, "logs", "t-read.log"),
      words: cliRunWords(),
      origin: {},
      engine: () => Promise.reject(new Error("the engine was not needed")),
      engineAsked: () => null,
    };
    const handle = launch(plan, { threadId: "t-read", resume: {}, read });
    for await (const _ of handle.events);
    expect((await handle.result).status).toBe("passed");
    expect(reads).toBe(before);
  });
});

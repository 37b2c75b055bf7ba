import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config/resolve.js";
import { forkThread, threadHistory } from "../../src/engine/history.js";
import { openSession, type Session } from "../../src/engine/session.js";
import { BACKENDS, useTestDatabase } from "../helpers/postgres.js";
import { analystDone, BAD_ADD, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { nodesStarted, readThread, runEngine } from "../helpers/engine.js";
import { roleOf, startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach();

// The fixture's test script given as a configured gate named "test": these cases are about checkpoints, history and
// forks, not npm's detection, and npm's own start is about 0.7 s of CPU a gate run. The detected `npm test` through
// a whole thread: tests/e2e/run-exit-codes.test.ts and tests/e2e/stories-kill-resume.test.ts.
const NODE_GATE = { gates: [{ name: "test", command: "node --test test/" }] };

// The same run, resume, history and fork on both savers.
describe.each(BACKENDS)("history and forks (%s)", (backend) => {
  const db = useTestDatabase(backend);

  async function withSession<T>(root: string, fn: (config: ReturnType<typeof resolveConfig>, session: Session) => Promise<T>) {
    const config = resolveConfig({ root, fileConfig: {}, file: null, env: db.env() });
    const session = await openSession(config);
    try {
      return await fn(config, session);
    } finally {
      await session.close();
    }
  }

  it("lists every checkpoint, and a fork re-runs dev from pm's checkpoint on a new thread, leaving the original intact", async () => {
    const project = makeProject();
    // The original run's dev wrote the wrong sign and ran out of fix attempts; the fork gets a better dev.
    const dir = director({
      analyst: [analystDone],
      pm: [pmDone(false)],
      dev: [...devWrites(BAD_ADD), ...devWrites(GOOD_ADD)],
      tea: [teaSays("FAIL"), teaSays("PASS")],
    });
    const mock = await startMockOpenAI(dir);
    cleanups.push(project.cleanup, () => mock.close());

    const original = await runEngine({
      root: project.root,
      baseURL: mock.url,
      threadId: "tt-orig",
      requirement: "Add add()",
      config: { ...NODE_GATE, maxFixAttempts: 0 },
      env: db.env(),
    });
    expect(original.result.status).toBe("failed");

    const history = await withSession(project.root, (config, session) => threadHistory(config, session, "tt-orig"));
    expect(history.map((h) => [h.step, h.node, h.next.join(",")])).toEqual([
      [-1, "input", "__start__"],
      [0, "__start__", "gate_baseline"],
      [1, "gate_baseline", "analyst"],
      [2, "analyst", "pm"],
      [3, "pm", "dev"],
      [4, "dev", "tea"],
      [5, "tea", ""],
    ]);
    // The gate baseline, taken before any agent: red, src/add.js does not exist yet.
    expect(history[2].summary).toBe("baseline: test failed (1 test)");
    expect(history[3].summary).toBe("2 acceptance criteria");
    expect(history[4].summary).toBe("1 story, architecture not needed");
    expect(history[6].summary).toBe("verdict FAIL, gates 0/1 passed — blocked");

    const before = await readThread(project.root, "tt-orig", {}, db.env());
    const served = dir.served.length;
    // The CLI records where a thread started; the fork keeps it, and says where it came from.
    await withSession(project.root, (_config, session) => session.threads.update("tt-orig", { startCommit: "c0ffee" }));
    const entry = await withSession(project.root, (config, session) => forkThread(config, session, "tt-orig", "3", "tt-fork"));
    expect(entry).toMatchObject({ step: 3, node: "pm" });
    const row = await withSession(project.root, (_config, session) => session.threads.get("tt-fork"));
    expect(row).toMatchObject({ startCommit: "c0ffee", forkedFrom: { thread: "tt-orig", step: 3 } });
    expect(await withSession(project.root, (_config, session) => session.threads.get("tt-orig"))).toMatchObject({ forkedFrom: null });

    const fork = await runEngine({ root: project.root, baseURL: mock.url, threadId: "tt-fork", config: { ...NODE_GATE, maxFixAttempts: 0 }, env: db.env() });
    expect(fork.result).toMatchObject({ status: "passed", exitCode: 0 });
    expect(nodesStarted(fork.events)).toEqual(["dev", "tea"]);
    expect(dir.served.slice(served)).toEqual(["dev", "dev", "tea"]);
    // The fork carried the earlier agents' work…
    const devPrompt = JSON.stringify(mock.requests.filter((r) => roleOf(r) === "dev").at(-2)!.messages);
    expect(devPrompt).toContain("add(2, 3) returns 5");
    // …and the original thread is exactly as it was.
    const after = await readThread(project.root, "tt-orig", {}, db.env());
    expect(after.values).toEqual(before.values);
    const forked = await readThread(project.root, "tt-fork", {}, db.env());
    // Accumulating channels were copied once, not doubled by their reducers.
    expect(forked.values.usageByNode.analyst.calls).toBe(1);
    expect(forked.values.usageByNode.dev.calls).toBe(2);
    expect(forked.values.acceptanceCriteria).toEqual(before.values.acceptanceCriteria);
    expect(forked.values.gateHistory.map((g) => g.passed)).toEqual([true]);
    expect(forked.values.requirement).toBe("Add add()");
  });

  it("refuses a checkpoint that does not exist", async () => {
    const project = makeProject();
    const mock = await startMockOpenAI(director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    cleanups.push(project.cleanup, () => mock.close());
    await runEngine({ root: project.root, baseURL: mock.url, threadId: "tt-x", requirement: "Add add()", config: NODE_GATE, env: db.env() });
    await expect(withSession(project.root, (c, s) => forkThread(c, s, "tt-x", "99", "tt-y"))).rejects.toThrow(/has no checkpoint "99"/);
    await expect(withSession(project.root, (c, s) => forkThread(c, s, "tt-x", "-1", "tt-y"))).rejects.toThrow(/Cannot fork from step -1/);
  });
});

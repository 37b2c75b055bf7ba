import { describe, type ExpectStatic, it } from "vitest";
import { loadResolvedConfig } from "../../src/cli/load-config.js";
import { buildWorkflowGraph } from "../../src/engine/graph.js";
import { threadHistory } from "../../src/engine/history.js";
import { inertDeps, inspectThread, threadConfig } from "../../src/engine/inspect.js";
import { openIndex, openSession } from "../../src/engine/session.js";
import { readThreadHistory } from "../../src/engine/stored-history.js";
import { positionSource, readThreadState } from "../../src/engine/stored-thread.js";
import { graphNodeNames } from "../../src/engine/thread-profile.js";
import { positionOf } from "../../src/engine/position.js";
import { UnreadableCheckpoint } from "../../src/store/checkpoint-rows.js";
import { checkpointView } from "../../src/store/checkpoint-view.js";
import { deferred, describeResult, rolesOf, runYolo, spawnYolo, threadIdFrom, waitFor } from "../helpers/cli.js";
import { analystDone, architectDone, BAD_ADD, call, devWrites, director, GOOD_ADD, handoff, pmDone, teaSays } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";
import { pmStories, storyDirector } from "../helpers/stories.js";

// The checkpoint reader (src/store/checkpoint-view.ts) re-implements what LangGraph's getState and getStateHistory
// compute from SqliteSaver's tables. Real threads of every shape, made by the built binary against the scripted model,
// are read both ways, checkpoint by checkpoint: a LangGraph upgrade that changes the format fails here.

type Expect = ExpectStatic;
const REQ = "Add an add(a, b) function to src/add.js";
const MUL = "export function mul(a, b) {\n  return a * b;\n}\n";

// What a task is, on both sides (LangGraph's also carries its path and result, which nothing of yolo reads).
const taskFacts = (t: { id: string; name: string; interrupts?: unknown[]; error?: unknown }) => ({
  id: t.id,
  name: t.name,
  interrupts: t.interrupts ?? [],
  error: t.error === undefined ? undefined : JSON.parse(JSON.stringify(t.error)),
});

/**
 * Compares the reader with LangGraph on every checkpoint of a thread, then show's and history's whole answers.
 * `latest` says what the reader must do with the newest checkpoint: read it, or hand it to LangGraph (a case it
 * does not reproduce). Returns how many checkpoints were compared.
 */
async function matchesLangGraph(expect: Expect, root: string, thread: string, latest: "reads" | "falls back" = "reads"): Promise<number> {
  const config = await loadResolvedConfig(root);
  const session = await openSession(config);
  const index = await openIndex(config);
  try {
    const ownConfig = await threadConfig(config, session, thread);
    const graph = buildWorkflowGraph(inertDeps(ownConfig), session.checkpointer);
    const nodes = graphNodeNames(ownConfig);
    const snapshots = [];
    for await (const s of graph.getStateHistory({ configurable: { thread_id: thread } })) snapshots.push(s);
    const rows = index.checkpointRows!(thread);
    expect(rows.ids()).toEqual(snapshots.map((s) => s.config.configurable?.checkpoint_id));
    for (const s of snapshots) {
      const id = s.config.configurable?.checkpoint_id as string;
      const view = checkpointView(rows, id, { latest: false, nodes });
      const at = `checkpoint ${id} (step ${s.metadata?.step}) of ${thread}`;
      expect(view.values, at).toEqual(s.values);
      expect(Object.keys(view.values), at).toEqual(Object.keys(s.values));
      expect(view.next, at).toEqual(s.next);
      expect(view.tasks.map(taskFacts), at).toEqual(s.tasks.map(taskFacts));
      expect(view.parentId, at).toBe(s.parentConfig?.configurable?.checkpoint_id ?? null);
      expect(view.createdAt, at).toBe(s.createdAt);
      expect({ ...view.metadata, thread_id: thread }, at).toEqual(s.metadata);
      expect(positionOf(positionSource(view)), at).toEqual(positionOf(s));
    }

    const state = await graph.getState({ configurable: { thread_id: thread } });
    const newest = rows.ids()[0];
    if (latest === "reads") {
      const view = checkpointView(rows, newest, { latest: true, nodes });
      expect(view.values).toEqual(state.values);
      expect(view.next).toEqual(state.next);
      expect(view.tasks.map(taskFacts)).toEqual(state.tasks.map(taskFacts));
      expect(positionOf(positionSource(view))).toEqual(positionOf(state));
    } else {
      expect(() => checkpointView(rows, newest, { latest: true, nodes })).toThrow(UnreadableCheckpoint);
    }
    // What `yolo show` and `yolo history` get, whichever way they read it, is LangGraph's answer.
    expect(await readThreadState(config, index, thread)).toEqual(await inspectThread(config, session, thread));
    expect(await readThreadHistory(config, index, thread)).toEqual(await threadHistory(config, session, thread));
    return snapshots.length;
  } finally {
    await index.close();
    await session.close();
  }
}

// The fixture's test script given as the gate: what is compared is the reader's answer with LangGraph's on whatever
// the threads hold, not npm's detection, and npm's own start costs about 0.7 s of CPU a gate run. A resume or fork keeps
// the thread's command.
const GATE = ["--test-cmd", "node --test test/"];

describe.concurrent("the checkpoint reader gives LangGraph's own answer for every checkpoint of real threads", { timeout: 240_000 }, () => {
  it("a finished run, and a thread forked from one of its steps with `resume --from`", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(
      onTestFinished,
      director({
        analyst: [analystDone],
        pm: [pmDone(true)],
        architect: [architectDone],
        dev: [...devWrites(BAD_ADD), ...devWrites(GOOD_ADD)],
        tea: [teaSays("FAIL"), teaSays("PASS")],
      }),
    );
    const first = await runYolo(["run", ...GATE, "--json", "--max-fix-attempts", "0", REQ], { cwd: root, baseURL: mock.url });
    expect(first.exitCode, describeResult(first)).toBe(1);
    const thread = threadIdFrom(first.stdout);
    expect(await matchesLangGraph(expect, root, thread)).toBeGreaterThan(6);

    const fork = await runYolo(["resume", thread, "--json", "--from", "4", "--max-fix-attempts", "0"], { cwd: root, baseURL: mock.url });
    expect(fork.exitCode, describeResult(fork)).toBe(0);
    const forked = threadIdFrom(fork.stdout);
    expect(forked).not.toBe(thread);
    expect(await matchesLangGraph(expect, root, forked)).toBeGreaterThan(2);
  });

  it("waiting on a question (an escalation), then answered to the end", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(
      onTestFinished,
      director({
        analyst: [handoff({ escalate_to_human: true, question: "Integers only?" }), analystDone],
        pm: [pmDone(false)],
        dev: devWrites(GOOD_ADD),
        tea: [teaSays("PASS")],
      }),
    );
    const first = await runYolo(["run", ...GATE, "--json", REQ], { cwd: root, baseURL: mock.url });
    expect(first.exitCode, describeResult(first)).toBe(3);
    const thread = threadIdFrom(first.stdout);
    await matchesLangGraph(expect, root, thread);
    const config = await loadResolvedConfig(root);
    const index = await openIndex(config);
    onTestFinished(() => index.close());
    expect((await readThreadState(config, index, thread)).position).toMatchObject({ kind: "waiting", question: "Integers only?", askedBy: "analyst" });

    const answered = await runYolo(["resume", "--json", thread, "--answer", "Integers."], { cwd: root, baseURL: mock.url });
    expect(answered.exitCode, describeResult(answered)).toBe(0);
    await matchesLangGraph(expect, root, thread);
  });

  it("waiting on an approval (a human node of the workflow), then approved to the end", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, { "yolo.config.ts": 'import { defineConfig } from "yolo";\nexport default defineConfig({ approve: ["pm"] });\n' });
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    const first = await runYolo(["run", ...GATE, "--json", REQ], { cwd: root, baseURL: mock.url });
    expect(first.exitCode, describeResult(first)).toBe(3);
    const thread = threadIdFrom(first.stdout);
    await matchesLangGraph(expect, root, thread);
    const config = await loadResolvedConfig(root);
    const index = await openIndex(config);
    onTestFinished(() => index.close());
    expect((await readThreadState(config, index, thread)).position).toMatchObject({ kind: "waiting", node: "approve_pm", request: { kind: "approval" } });

    const approved = await runYolo(["resume", "--json", thread, "--approve"], { cwd: root, baseURL: mock.url });
    expect(approved.exitCode, describeResult(approved)).toBe(0);
    await matchesLangGraph(expect, root, thread);
  });

  it("stopped by the step limit", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    const r = await runYolo(["run", ...GATE, "--json", "--max-steps", "2", REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).not.toBe(0);
    const thread = threadIdFrom(r.stdout);
    await matchesLangGraph(expect, root, thread);
    const config = await loadResolvedConfig(root);
    const index = await openIndex(config);
    onTestFinished(() => index.close());
    expect((await readThreadState(config, index, thread)).position).toMatchObject({ kind: "pending", next: ["dev"] });
  });

  it("killed mid-node; and the same thread once the killed node's writes are saved without its checkpoint (LangGraph answers)", async ({
    expect,
    onTestFinished,
  }) => {
    const root = project(onTestFinished);
    const held = deferred();
    onTestFinished(held.release);
    const mock = await mockWith(
      onTestFinished,
      director({ analyst: [analystDone], pm: [pmDone(false)], dev: [{ ...call("write_file", { path: "src/add.js", content: BAD_ADD }), hold: held.promise }] }),
    );
    const child = spawnYolo(["run", ...GATE, "--json", REQ], { cwd: root, baseURL: mock.url });
    await waitFor(() => rolesOf(mock).includes("dev"), "dev's request to reach the mock");
    child.kill("SIGKILL");
    const killed = await child;
    expect(killed.signal).toBe("SIGKILL");
    const thread = threadIdFrom(String(killed.stdout));
    await matchesLangGraph(expect, root, thread);

    // A node that finished and saved its writes, killed before the step's checkpoint: getState applies the writes
    // through the state's reducers, which the reader does not re-implement, so it hands the thread to LangGraph.
    const config = await loadResolvedConfig(root);
    const session = await openSession(config);
    try {
      const graph = buildWorkflowGraph(inertDeps(config), session.checkpointer);
      const state = await graph.getState({ configurable: { thread_id: thread } });
      expect(state.next).toEqual(["dev"]);
      await session.checkpointer.putWrites(state.config, [["devSummary", "written before the kill"]], state.tasks[0].id);
    } finally {
      await session.close();
    }
    await matchesLangGraph(expect, root, thread, "falls back");
    const index = await openIndex(config);
    onTestFinished(() => index.close());
    expect(await readThreadState(config, index, thread)).toMatchObject({
      values: { devSummary: "written before the kill" },
      position: { kind: "pending", next: ["dev"] },
    });
  });

  it("stories in parallel (Send packets run story_dev tasks), to the end", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(
      onTestFinished,
      storyDirector({
        analyst: [analystDone],
        pm: [
          pmStories([
            { id: "add", title: "Add numbers", depends_on: [] },
            { id: "mul", title: "Multiply numbers", depends_on: [] },
          ]),
        ],
        "dev:add": [call("write_file", { path: "src/add.js", content: GOOD_ADD }), handoff({ summary: "add", files_changed: ["src/add.js"] })],
        "dev:mul": [call("write_file", { path: "src/mul.js", content: MUL }), handoff({ summary: "mul", files_changed: ["src/mul.js"] })],
        tea: [teaSays("PASS")],
      }),
    );
    const r = await runYolo(["run", ...GATE, "--json", REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const thread = threadIdFrom(r.stdout);
    await matchesLangGraph(expect, root, thread);
    // The dispatch checkpoint's next is the two stories' tasks, as LangGraph lists Send packets.
    const history = await runYolo(["history", "--json", thread], { cwd: root });
    const entries = JSON.parse(history.stdout) as { next: string[] }[];
    expect(entries.some((e) => e.next.join(",") === "story_dev,story_dev")).toBe(true);
  });

  it("a chat thread and an agent thread", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(
      onTestFinished,
      director({
        chat: [{ content: "A demo package." }],
        dev: [call("write_file", { path: "src/add.js", content: GOOD_ADD }), handoff({ summary: "add", files_changed: [] })],
      }),
    );
    const chat = await runYolo(["chat", "--json", "What is this project?"], { cwd: root, baseURL: mock.url });
    expect(chat.exitCode, describeResult(chat)).toBe(0);
    await matchesLangGraph(expect, root, threadIdFrom(chat.stdout));
    const agent = await runYolo(["agent", "--json", "dev", "Write add(a, b) in src/add.js"], { cwd: root, baseURL: mock.url });
    expect(agent.exitCode, describeResult(agent)).toBe(0);
    await matchesLangGraph(expect, root, threadIdFrom(agent.stdout));
  });
});

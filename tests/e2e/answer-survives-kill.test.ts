import { describe, expect, it } from "vitest";
import { loadResolvedConfig } from "../../src/cli/load-config.js";
import { inspectThread } from "../../src/engine/inspect.js";
import { openIndex, openSession } from "../../src/engine/session.js";
import { readLatestState } from "../../src/engine/stored-thread.js";
import { deferred, describeResult, parseEvents, rolesOf, runYolo, spawnYolo, threadIdFrom, waitFor } from "../helpers/cli.js";
import { analystDone, BAD_ADD, call, director, handoff, pmDone, teaSays } from "../helpers/director.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { BACKENDS, useTestDatabase } from "../helpers/postgres.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach("lastFirst");

const REQ = "Add an add(a, b) function to src/add.js";
// dev rewrites the test script: tea asks for an approval, then (in the same node) runs the gate and asks the model.
const CHEAT = [
  call("write_file", { path: "src/add.js", content: BAD_ADD }),
  call("write_file", { path: "package.json", content: JSON.stringify({ name: "demo", type: "module", scripts: { test: "exit 0" } }) }),
  handoff({ summary: "done", files_changed: ["src/add.js", "package.json"] }),
];

// LangGraph saves `--approve`'s answer (a `__resume__` write) before the node it resumes calls the model: a process
// killed during that call has lost nothing, so the next plain resume goes on with the answer.
describe.each(BACKENDS)("an answer given to a command killed with SIGKILL is kept (%s)", (backend) => {
  const db = useTestDatabase(backend);
  it("show says answered, a second answer is refused, a plain resume finishes with the saved one", async () => {
    const project = makeProject();
    const held = deferred();
    // tea's call after the approval is held open until after the kill; its reply must never land.
    const tea = [{ ...teaSays("PASS"), hold: held.promise }, teaSays("PASS")];
    const mock = await startMockOpenAI(director({ analyst: [analystDone], pm: [pmDone(false)], dev: CHEAT, tea }));
    cleanups.push(project.cleanup, () => mock.close(), held.release);
    const opts = { cwd: project.root, baseURL: mock.url, env: db.env() };

    const first = await runYolo(["run", "--ci", "--json", REQ], opts);
    expect(first.exitCode, describeResult(first)).toBe(3);
    const thread = threadIdFrom(first.stdout);
    expect(rolesOf(mock)).not.toContain("tea");

    const child = spawnYolo(["resume", "--json", thread, "--approve"], opts);
    await waitFor(() => rolesOf(mock).includes("tea"), "tea's request after the approval to reach the mock");
    child.kill("SIGKILL");
    expect((await child).signal).toBe("SIGKILL");
    held.release();
    const seen = mock.requests.length;

    const show = await runYolo(["show", thread], opts);
    expect(show.exitCode, describeResult(show)).toBe(0);
    expect(show.stdout).not.toContain("Waiting for");
    expect(show.stdout).toContain(`Answered, not yet taken: approve (tea). Continue with: yolo resume ${thread}`);
    const report = await runYolo(["report", thread, "--format", "markdown"], opts);
    expect(report.exitCode, describeResult(report)).toBe(0);
    expect(report.stdout).not.toContain("Waiting for");
    expect(report.stdout).toContain("**Answered, not yet taken:**");
    expect(report.stdout).toContain(`yolo resume ${thread}\n`);
    const shown = JSON.parse((await runYolo(["show", "--json", thread], opts)).stdout);
    expect(shown.position).toBe("answered");
    if (backend === "sqlite") await readerMatchesLangGraph(project.root, thread);
    const threads = JSON.parse((await runYolo(["threads", "--json"], opts)).stdout);
    expect(threads).toEqual([expect.objectContaining({ id: thread, status: "interrupted" })]);

    // The saved answer is the one that counts: another is refused before anything runs.
    const again = await runYolo(["resume", thread, "--reject", "no"], opts);
    expect(again.exitCode, describeResult(again)).toBe(2);
    expect(again.stderr).toContain(`Thread ${thread} was already answered (approve)`);
    expect(mock.requests.length).toBe(seen);

    const resumed = await runYolo(["resume", "--json", thread], opts);
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    const events = parseEvents(resumed.stdout);
    expect(events.some((e) => e.type === "interrupt")).toBe(false);
    const gate = events.find((e) => e.type === "gate.result" && !e.gate.baseline);
    expect(gate?.type === "gate.result" && gate.gate).toMatchObject({ gateChangeApproved: true, blocking: false });
    expect(rolesOf(mock).slice(seen)).toEqual(["tea"]);
  });
});

// The checkpoint reader reads the killed thread itself (no fall-back to LangGraph) and says what LangGraph says.
async function readerMatchesLangGraph(root: string, thread: string): Promise<void> {
  const config = await loadResolvedConfig(root);
  const [index, session] = await Promise.all([openIndex(config), openSession(config)]);
  try {
    const read = readLatestState(config, index, thread);
    expect(read?.position).toMatchObject({ kind: "answered", node: "tea", answer: { action: "approve" } });
    expect(read).toEqual(await inspectThread(config, session, thread));
  } finally {
    await Promise.all([index.close(), session.close()]);
  }
}

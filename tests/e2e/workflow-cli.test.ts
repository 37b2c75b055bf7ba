import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeResult, parseEvents, rolesOf, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, BAD_ADD, call, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { roleOf, startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach();

async function setup(script: Parameters<typeof director>[0], files: Record<string, string> = {}) {
  const project = makeProject(files);
  const mock = await startMockOpenAI(director(script));
  cleanups.push(project.cleanup, () => mock.close());
  return { root: project.root, mock };
}

// The fixture's test script given as the gate: these cases are about workflows, approvals and history, not npm's
// detection, and npm's own start costs about 0.5 s of CPU a gate run. A resume keeps the thread's command. Runs with the
// detected `npm test`: tests/e2e/run-exit-codes.test.ts.
const GATE = ["--test-cmd", "node --test test/"];
/** How the printed resume command repeats GATE, so a resume keeps it (exact, as printed). */
const RESUME_GATE = " --test-cmd 'node --test test/'";

const APPROVE_PM = 'import { defineConfig } from "yolo";\nexport default defineConfig({ approve: ["pm"] });\n';

describe("workflows through the built binary", () => {
  it("`yolo init` scaffolds a config holding the default workflow and the agents, never overwriting; the result validates and draws", async () => {
    const project = makeProject({ "agents/dev.md": "---\nname: Mine\ndescription: my dev\ntools: [read_file]\n---\nMy own dev.\n" });
    cleanups.push(project.cleanup);
    const first = await runYolo(["init"], { cwd: project.root });
    expect(first.exitCode, describeResult(first)).toBe(0);
    expect(first.stdout).toContain("created yolo.config.ts");
    expect(first.stdout).toContain("created agents/analyst.md");
    expect(first.stdout).toContain("kept    agents/dev.md (already exists; not overwritten)");
    expect(readFileSync(join(project.root, "agents/dev.md"), "utf8")).toContain("My own dev.");
    const config = readFileSync(join(project.root, "yolo.config.ts"), "utf8");
    expect(config).toContain('{ from: "tea", to: "dev", when: "gate_blocked && fix_attempts_remain" }');

    const again = await runYolo(["init"], { cwd: project.root });
    expect(again.stdout).toContain("kept    yolo.config.ts");
    const graph = await runYolo(["graph"], { cwd: project.root });
    expect(graph.exitCode, describeResult(graph)).toBe(0);
    expect(graph.stdout).toContain('tea -.->|"gate_blocked && fix_attempts_remain"| dev;');
  });

  it("an invalid workflow exits 2 listing every problem with its config path, before any model call", async () => {
    const { root, mock } = await setup(
      {},
      {
        "yolo.config.ts": `import { defineConfig } from "yolo";
export default defineConfig({ workflow: { nodes: { dev: { kind: "agent" }, triage: { kind: "switch", cases: [] }, qa: { kind: "agent", agent: "qa" } },
  edges: [{ from: "start", to: "dev" }, { from: "dev", to: "triage" }, { from: "triage", to: "nowhere", case: "default" }] } });
`,
      },
    );
    const r = await runYolo(["run", "--json", "x"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stderr).toContain("workflow.nodes.triage.cases: a switch needs at least one case");
    expect(r.stderr).toContain('workflow.edges[2].to: no node "nowhere"');
    expect(r.stderr).toMatch(/workflow\.nodes\.qa\.agent: unknown agent "qa"/);
    expect(r.stderr).toContain('workflow.nodes.qa: unreachable from "start"');
    expect(r.stdout).toBe("");
    expect(mock.requests).toHaveLength(0);
  });

  it("a human approval: exit 3 with the artifact, a bad edit refused (exit 2), a rejection sent back, then --approve to a pass", async () => {
    const { root, mock } = await setup(
      { analyst: [analystDone], pm: [pmDone(false), pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] },
      { "yolo.config.ts": APPROVE_PM },
    );
    const first = await runYolo(["run", ...GATE, "--json", "Add add()"], { cwd: root, baseURL: mock.url });
    expect(first.exitCode, describeResult(first)).toBe(3);
    const thread = threadIdFrom(first.stdout);
    const interrupt = parseEvents(first.stdout).find((e) => e.type === "interrupt");
    expect(interrupt).toMatchObject({
      kind: "approval",
      node: "approve_pm",
      resumeCommand: `yolo resume ${thread}${RESUME_GATE} --approve | --edit <file> | --reject "<why>"`,
    });

    writeFileSync(join(root, "bad.yml"), "stories: nope\n");
    const bad = await runYolo(["resume", thread, "--json", "--edit", "bad.yml"], { cwd: root, baseURL: mock.url });
    expect(bad.exitCode, describeResult(bad)).toBe(2);
    expect(bad.stderr).toContain("The edit cannot be used");

    const answer = await runYolo(["resume", thread, "--json", "--answer", "yes"], { cwd: root, baseURL: mock.url });
    expect(answer.exitCode).toBe(2);
    expect(answer.stderr).toContain("waits for a review, not an answer");

    const rejected = await runYolo(["resume", thread, "--json", "--reject", "one story per function"], { cwd: root, baseURL: mock.url });
    expect(rejected.exitCode, describeResult(rejected)).toBe(3);
    expect(JSON.stringify(mock.requests.filter((q) => roleOf(q) === "pm")[1].messages)).toContain("one story per function");

    const approved = await runYolo(["resume", thread, "--json", "--approve"], { cwd: root, baseURL: mock.url });
    expect(approved.exitCode, describeResult(approved)).toBe(0);
    const show = await runYolo(["show", thread], { cwd: root });
    expect(show.stdout).toContain("approve_pm on pm: reject — one story per function");
    expect(show.stdout).toContain("approve_pm on pm: approve");
  });

  it("an approval asked for by YOLO_APPROVE (an editor's plan mode) holds on every leg: a plain resume without it waits again", async () => {
    const { root, mock } = await setup({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] });
    const first = await runYolo(["run", ...GATE, "--json", "Add add()"], { cwd: root, baseURL: mock.url, env: { YOLO_APPROVE: "pm" } });
    expect(first.exitCode, describeResult(first)).toBe(3);
    const thread = threadIdFrom(first.stdout);
    expect(parseEvents(first.stdout).find((e) => e.type === "interrupt")).toMatchObject({ kind: "approval", node: "approve_pm" });

    // Without the variable the thread is the same graph: it still waits on the plan, and nothing past it runs.
    const plain = await runYolo(["resume", thread, "--json"], { cwd: root, baseURL: mock.url });
    expect(plain.exitCode, describeResult(plain)).toBe(3);
    expect(parseEvents(plain.stdout).find((e) => e.type === "interrupt")).toMatchObject({ kind: "approval", node: "approve_pm" });
    expect(rolesOf(mock)).not.toContain("dev");

    const approved = await runYolo(["resume", thread, "--json", "--approve"], { cwd: root, baseURL: mock.url });
    expect(approved.exitCode, describeResult(approved)).toBe(0);
    expect(rolesOf(mock)).toContain("dev");
  });

  it("--answers runs an approval and a question unattended; a missing answer fails closed with exit 3", async () => {
    const script = () => ({
      analyst: [call("handoff", { escalate_to_human: true, question: "Integers only, or floats too?" }), analystDone],
      pm: [pmDone(false)],
      dev: devWrites(GOOD_ADD),
      tea: [teaSays("PASS")],
    });
    const { root, mock } = await setup(script(), { "yolo.config.ts": APPROVE_PM });
    writeFileSync(join(root, "answers.yml"), "- node: analyst\n  question: floats\n  answer: Floats too\n- node: approve_pm\n  approve: true\n");
    const r = await runYolo(["run", ...GATE, "--ci", "--json", "--answers", "answers.yml", "Add add()"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(rolesOf(mock)).toEqual(["analyst", "analyst", "pm", "dev", "dev", "tea"]);

    const other = await setup(script(), { "yolo.config.ts": APPROVE_PM });
    writeFileSync(join(other.root, "answers.yml"), "- node: analyst\n  answer: Floats too\n");
    const missing = await runYolo(["run", ...GATE, "--ci", "--answers", "answers.yml", "Add add()"], { cwd: other.root, baseURL: other.mock.url });
    expect(missing.exitCode, describeResult(missing)).toBe(3);
    expect(missing.stdout).toContain("approve_pm");
  });

  it("history lists the checkpoints and `resume --from` forks a new thread that re-runs dev, leaving the original alone", async () => {
    const { root, mock } = await setup({
      analyst: [analystDone],
      pm: [pmDone(false)],
      dev: [...devWrites(BAD_ADD), ...devWrites(GOOD_ADD)],
      tea: [teaSays("FAIL"), teaSays("PASS")],
    });
    const first = await runYolo(["run", ...GATE, "--json", "--max-fix-attempts", "0", "Add add()"], { cwd: root, baseURL: mock.url });
    expect(first.exitCode, describeResult(first)).toBe(1);
    const thread = threadIdFrom(first.stdout);

    const history = await runYolo(["history", thread], { cwd: root });
    expect(history.exitCode, describeResult(history)).toBe(0);
    expect(history.stdout).toMatch(/^-1\s+input\s+.*__start__\s+requirement: Add add\(\)$/m);
    // Step 1 is the gate baseline, taken before any agent.
    expect(history.stdout).toMatch(/^1\s+gate_baseline\s+.*analyst\s+baseline: test failed \(1 test\)$/m);
    expect(history.stdout).toMatch(/^3\s+pm\s+.*dev\s+1 story, architecture not needed$/m);
    expect(history.stdout).toMatch(/^5\s+tea\s+.*verdict FAIL, gates 0\/1 passed — blocked$/m);

    const fork = await runYolo(["resume", thread, "--json", "--from", "3", "--max-fix-attempts", "0"], { cwd: root, baseURL: mock.url });
    expect(fork.exitCode, describeResult(fork)).toBe(0);
    const forkId = threadIdFrom(fork.stdout);
    expect(forkId).not.toBe(thread);
    expect(fork.stderr).toContain(`forked from ${thread} at step 3 (after pm)`);
    expect(parseEvents(fork.stdout).flatMap((e) => (e.type === "node.started" ? [e.node] : []))).toEqual(["dev", "tea"]);
    expect(readFileSync(join(root, "src/add.js"), "utf8")).toBe(GOOD_ADD);

    const threads = await runYolo(["threads", "--json"], { cwd: root });
    const rows = JSON.parse(threads.stdout) as { id: string; status: string; startCommit: string | null; forkedFrom: unknown }[];
    expect(rows.find((r) => r.id === thread)?.status).toBe("failed");
    const forkRow = rows.find((r) => r.id === forkId);
    expect(forkRow?.status).toBe("passed");
    // The fork keeps its parent's start commit and says where it came from.
    expect(forkRow?.startCommit).toBe(rows.find((r) => r.id === thread)?.startCommit);
    expect(forkRow?.startCommit).toMatch(/^[0-9a-f]{40}$/);
    expect(forkRow?.forkedFrom).toEqual({ thread, step: 3 });
    const shown = JSON.parse((await runYolo(["show", forkId, "--json"], { cwd: root })).stdout) as { thread: { forkedFrom: unknown } };
    expect(shown.thread.forkedFrom).toEqual({ thread, step: 3 });
    const diff = await runYolo(["show", forkId, "--diff"], { cwd: root });
    expect(diff.stdout + diff.stderr).not.toMatch(/recorded no start commit/);
    expect(diff.stdout).toContain("src/add.js");
    expect(existsSync(join(root, ".yolo", "yolo.db"))).toBe(true);
  });
});

// The gate baseline beside the thinking: a scripted run whose suite takes SUITE_S seconds and whose three planning
// agents take THINK_S seconds of model time each, once as yolo runs it (the baseline beside analyst, pm and architect)
// and once in the serial order (analyst given a write tool, so it waits for the baseline, as every run did before).
// Both in the same process and run; the figure is their ratio. Then a switch that picks a docs path: no suite runs.
// Last, the built binary against a dead endpoint with a SUITE_S-second suite, against a plain `yolo --version`.
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessageChunk } from "@langchain/core/messages";
import { ChatGenerationChunk } from "@langchain/core/outputs";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { resolveConfig } from "../dist/config/resolve.js";
import { launchLoaded } from "./loaded-launch.mjs";
import { openSession } from "../dist/engine/session.js";
import { loadWorkflowAgents } from "../dist/agents/workflow-agents.js";

const SUITE_S = 10;
const THINK_S = 3;
const PLANNING = new Set(["analyst", "pm", "architect"]);
const HANDOFFS = {
  analyst: { requirements: "# R\nadd(a, b)", acceptance_criteria: ["add(2, 3) is 5"] },
  pm: { stories: [{ title: "t", as_a: "dev", i_want: "add", so_that: "sum", acceptance_criteria: ["add(2, 3) is 5"] }], needs_architecture: true },
  architect: { decisions: [{ title: "one module", decision: "src/add.js", rationale: "small" }] },
  dev: { summary: "wrote add", files_changed: [] },
  writer: { summary: "wrote docs", files_changed: [] },
  tea: { verdict: "PASS", findings: [] },
};

// Answers each role with its handoff (a switch with its `docs` case), after THINK_S seconds for a planning agent.
class ScriptedModel extends BaseChatModel {
  _llmType() {
    return "bench-scripted";
  }
  bindTools() {
    return this;
  }
  async *_streamResponseChunks(messages) {
    const role = /You are the ([\w-]+) agent/.exec(String(messages[0].content))[1];
    if (PLANNING.has(role)) await new Promise((r) => setTimeout(r, THINK_S * 1000));
    const [name, args] = role === "route" ? ["switch_decision", { case: "docs" }] : ["handoff", HANDOFFS[role] ?? HANDOFFS.dev];
    const call = { id: `c${Math.random()}`, name, args: JSON.stringify(args), index: 0, type: "tool_call_chunk" };
    const usage = { input_tokens: 100, output_tokens: 10, total_tokens: 110 };
    yield new ChatGenerationChunk({ text: "", message: new AIMessageChunk({ content: "", tool_call_chunks: [call], usage_metadata: usage }) });
  }
}

const DOCS_WORKFLOW = {
  nodes: {
    analyst: { kind: "agent" },
    route: { kind: "switch", cases: [{ route: "docs", when: "documentation only" }] },
    writer: { kind: "agent", agent: "dev" },
    dev: { kind: "agent" },
    tea: { kind: "agent", gates: true },
  },
  edges: [
    { from: "start", to: "analyst" },
    { from: "analyst", to: "route" },
    { from: "route", to: "writer", case: "docs" },
    { from: "route", to: "dev", case: "default" },
    { from: "writer", to: "end" },
    { from: "dev", to: "tea" },
    { from: "tea", to: "end" },
  ],
};

// The docs workflow without analyst: the switch decides first, before any suite could start.
function switchFirst(workflow) {
  const { analyst: _analyst, ...nodes } = workflow.nodes;
  const edges = workflow.edges.filter((e) => e.from !== "analyst").map((e) => (e.from === "start" ? { ...e, to: "route" } : e));
  return { nodes, edges };
}

// One run of the pipeline on a fresh project whose suite sleeps SUITE_S seconds; `serial` makes analyst a writer.
async function timedRun({ serial = false, workflow } = {}) {
  const root = mkdtempSync(join(tmpdir(), "yolo-bench-overlap-"));
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "bench", type: "module" }));
  const suite = `sleep ${SUITE_S} && touch suite-ran`;
  const config = resolveConfig({
    root,
    fileConfig: { gates: [{ name: "test", command: suite }], ...(workflow ? { workflow } : {}) },
    file: null,
    env: { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
    flags: {},
  });
  const agents = loadWorkflowAgents(config);
  if (serial) agents.set("analyst", { ...agents.get("analyst"), tools: [...agents.get("analyst").tools, "write_file"] });
  const deps = {
    config,
    agents,
    createModel: () => new ScriptedModel({}),
    classifyError: () => null,
    gates: config.gates,
    baseEnv: { PATH: process.env.PATH },
    secretEnvNames: [],
    logger: { info() {}, warn() {}, error() {} },
  };
  const session = await openSession(config);
  const started = performance.now();
  const words = { resumeCommand: () => "yolo resume bench", errorReason: (error) => error.message };
  const handle = launchLoaded({ deps, session, threadId: "bench", start: { requirement: "add" }, logFile: join(root, "bench.log"), words });
  let gateRuns = 0;
  const errors = [];
  for await (const e of handle.events) {
    if (e.type === "gate.started") gateRuns++;
    if (e.type === "error") errors.push(e.message);
  }
  const result = await handle.result;
  const ms = performance.now() - started;
  await session.close();
  const suiteRan = existsSync(join(root, "suite-ran"));
  rmSync(root, { recursive: true, force: true });
  if (result.status !== "passed") throw new Error(`the bench run ended ${result.status}: ${result.reason} ${errors.join("; ")}`);
  return { ms, gateRuns, suiteRan };
}

export async function benchBaselineOverlap(print) {
  print(`Gate baseline beside the planning agents (suite ${SUITE_S} s, analyst/pm/architect ${THINK_S} s each; same run)`);
  const serial = await timedRun({ serial: true });
  const overlap = await timedRun();
  print(`  serial order (baseline first): ${(serial.ms / 1000).toFixed(1)} s, ${serial.gateRuns} suite runs`);
  print(`  overlapped:                    ${(overlap.ms / 1000).toFixed(1)} s, ${overlap.gateRuns} suite runs`);
  print(`  overlapped / serial: ${(overlap.ms / serial.ms).toFixed(2)}×`);
  const first = await timedRun({ workflow: switchFirst(DOCS_WORKFLOW) });
  print(`  a first switch that picks a gate-less path: ${first.gateRuns} suite runs started (${(first.ms / 1000).toFixed(1)} s)`);
  const later = await timedRun({ workflow: DOCS_WORKFLOW });
  const stopped = later.suiteRan ? "finished" : "stopped unfinished";
  print(`  the same switch after analyst: ${later.gateRuns} suite run started beside analyst, ${stopped} (${(later.ms / 1000).toFixed(1)} s)`);
}

const BIN = resolve("bin/yolo.js");
const DEV_FIRST = `export default { workflow: { nodes: { dev: { kind: "agent" }, tea: { kind: "agent", gates: true } },
  edges: [{ from: "start", to: "dev" }, { from: "dev", to: "tea" }, { from: "tea", to: "end" }] } };
`;

// A 127.0.0.1 port that was just free and is now closed: connecting to it is refused at once.
async function closedPort() {
  const server = createServer();
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address();
  await new Promise((r) => server.close(() => r()));
  return port;
}

// The built binary, timed from spawn to exit, in `cwd` with a clean environment (no user config, its own cache).
function timedYolo(args, cwd, env) {
  const started = performance.now();
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: "utf8", timeout: 120_000 });
  return { ms: performance.now() - started, status: r.status, stderr: r.stderr ?? "" };
}

// A git project whose test gate sleeps SUITE_S seconds (and notes that it finished), optionally with a workflow.
function suiteProject(config) {
  const root = mkdtempSync(join(tmpdir(), "yolo-bench-dead-"));
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "bench", type: "module", scripts: { test: `sleep ${SUITE_S} && touch suite-ran` } }));
  writeFileSync(join(root, ".gitignore"), "suite-ran\n");
  if (config) writeFileSync(join(root, "yolo.config.ts"), config);
  const git = (...a) => execFileSync("git", a, { cwd: root, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.name=bench", "-c", "user.email=bench@localhost", "commit", "-qm", "init");
  return root;
}

// A dead endpoint said before the suite: `yolo run` against a closed port, as a ratio of a plain `yolo --version`.
export async function benchDeadEndpoint(print) {
  const cache = mkdtempSync(join(tmpdir(), "yolo-bench-cache-"));
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, YOLO_USER_CONFIG: "", XDG_CACHE_HOME: cache };
  env.OPENAI_BASE_URL = `http://127.0.0.1:${await closedPort()}/v1`;
  print(`A dead endpoint with a ${SUITE_S} s suite, against a plain \`yolo --version\` (built binary, median of 3, same run)`);
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const version = [];
  const cases = [
    ["default pipeline (analyst's call fails beside the suite)", null],
    ["a workflow whose first node writes (GET /models before the suite is awaited)", DEV_FIRST],
  ].map(([label, config]) => ({ label, config, ms: [] }));
  try {
    for (let i = 0; i < 3; i++) {
      version.push(timedYolo(["--version"], cache, env).ms);
      for (const c of cases) {
        const root = suiteProject(c.config);
        const r = timedYolo(["run", "--json", "Add add()"], root, env);
        const finished = existsSync(join(root, "suite-ran"));
        rmSync(root, { recursive: true, force: true });
        if (r.status !== 5 || !/Could not connect/.test(r.stderr) || finished)
          throw new Error(`${c.label}: exit ${r.status}, suite ${finished ? "finished" : "unfinished"}: ${r.stderr.slice(-300)}`);
        c.ms.push(r.ms);
      }
    }
    const v = median(version);
    print(`  yolo --version: ${(v / 1000).toFixed(2)} s`);
    for (const c of cases)
      print(
        `  ${c.label}: ${(median(c.ms) / 1000).toFixed(2)} s, ${(median(c.ms) / v).toFixed(1)}× --version, ${(median(c.ms) / (SUITE_S * 1000)).toFixed(2)}× the suite`,
      );
  } catch (error) {
    print(`  not measured: ${error.message}`);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] !== "dead") await benchBaselineOverlap((line) => console.log(line));
  await benchDeadEndpoint((line) => console.log(line));
}

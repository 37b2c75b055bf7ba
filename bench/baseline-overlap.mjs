// The gate baseline beside the thinking: a scripted run whose suite takes SUITE_S seconds and whose three planning
// agents take THINK_S seconds of model time each, once as yolo runs it (the baseline beside analyst, pm and architect)
// and once in the serial order (analyst given a write tool, so it waits for the baseline, as every run did before).
// Both in the same process and run; the figure is their ratio. Then a switch that picks a docs path: no suite runs.
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessageChunk } from "@langchain/core/messages";
import { ChatGenerationChunk } from "@langchain/core/outputs";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveConfig } from "../dist/config/resolve.js";
import { startRun } from "../dist/engine/run.js";
import { openSession } from "../dist/engine/session.js";
import { loadWorkflowAgents } from "../dist/engine/workflow-agents.js";

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
  const handle = startRun({ deps, session, threadId: "bench", start: { requirement: "add" }, logFile: join(root, "bench.log"), words });
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

if (import.meta.url === `file://${process.argv[1]}`) await benchBaselineOverlap((line) => console.log(line));

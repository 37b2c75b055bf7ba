// Per-superstep overhead of yolo's compiled pipeline against a bare LangGraph graph with the same number of
// supersteps on the same SQLite checkpointer (durability "sync"), and checkpoint DB size after 20 and 200 supersteps.
// The model is an in-process fake that hands off at once, so what is measured is yolo's own work per step:
// prompt composition, project summary, transcripts on disk, event translation, routers, state reducers, and
// one gate command per tea step (`true`, a real child process) so gate results are in every checkpoint.
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, AIMessageChunk } from "@langchain/core/messages";
import { ChatGenerationChunk } from "@langchain/core/outputs";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveConfig } from "../dist/config/resolve.js";
import { buildWorkflowGraph } from "../dist/engine/graph.js";
import { launchLoaded } from "./loaded-launch.mjs";
import { openSession } from "../dist/engine/session.js";
import { loadWorkflowAgents } from "../dist/agents/workflow-agents.js";
import { runShell } from "../dist/exec/run-shell.js";
import { registerSecrets } from "../dist/secrets/scrub.js";
import { setSpawnerMode } from "../dist/exec/spawner.js";
import { createCheckpointer } from "../dist/store/checkpointer.js";
import { openDatabase } from "../dist/store/db.js";

const HANDOFFS = {
  analyst: { requirements: "# R\nadd(a, b)", acceptance_criteria: ["add(2, 3) is 5"] },
  pm: { stories: [{ title: "t", as_a: "dev", i_want: "add", so_that: "sum", acceptance_criteria: ["add(2, 3) is 5"] }], needs_architecture: false },
  dev: { summary: "changed nothing", files_changed: [] },
  tea: { verdict: "FAIL", findings: ["keep looping"] },
};

/**
 * A chat model that answers every call with the calling role's handoff, streamed as one chunk: a real provider's
 * client (ChatOpenAI) streams, so the agent loop's `stream()` takes LangChain's streaming path, not its fallback
 * through `invoke()`.
 */
export class HandoffModel extends BaseChatModel {
  _llmType() {
    return "bench-handoff";
  }
  bindTools() {
    return this;
  }
  async _generate(messages) {
    const message = new AIMessage({ content: "", tool_calls: [{ id: `c${Math.random()}`, name: "handoff", args: handoffOf(messages), type: "tool_call" }] });
    message.usage_metadata = USAGE;
    return { generations: [{ text: "", message }] };
  }
  async *_streamResponseChunks(messages) {
    const call = { id: `c${Math.random()}`, name: "handoff", args: JSON.stringify(handoffOf(messages)), index: 0, type: "tool_call_chunk" };
    yield new ChatGenerationChunk({ text: "", message: new AIMessageChunk({ content: "", tool_call_chunks: [call], usage_metadata: USAGE }) });
  }
}

const USAGE = { input_tokens: 100, output_tokens: 10, total_tokens: 110 };
const handoffOf = (messages) => HANDOFFS[/You are the (\w+) agent/.exec(String(messages[0].content))[1]];

// The bench's project; `git`: a repository with its files committed (gate checks then record the trees they judge).
function project({ git = false } = {}) {
  const root = mkdtempSync(join(tmpdir(), "yolo-bench-"));
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "bench", type: "module" }));
  writeFileSync(join(root, "src", "index.js"), "export {};\n");
  if (git) {
    const opts = { cwd: root, stdio: "ignore" };
    execFileSync("git", ["init", "-q"], opts);
    execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", "add", "-A"], opts);
    execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "init"], opts);
  }
  return root;
}

function dbBytes(path) {
  let total = 0;
  for (const f of [path, `${path}-wal`]) {
    try {
      total += statSync(f).size;
    } catch {}
  }
  return total;
}

/** Engine dependencies for a benchmark run: the in-process handoff model, silent logger, no sandbox (as in tests). */
export function benchDeps(config) {
  return {
    config,
    agents: loadWorkflowAgents(config),
    createModel: () => new HandoffModel({}),
    classifyError: () => null,
    gates: config.gates,
    baseEnv: { PATH: process.env.PATH },
    secretEnvNames: [],
    logger: { info() {}, warn() {}, error() {} },
  };
}

/** Wall and CPU milliseconds since `from` (a `now()`). */
const now = () => ({ wall: process.hrtime.bigint(), cpu: process.cpuUsage() });
function since(from) {
  const cpu = process.cpuUsage(from.cpu);
  return { ms: Number(process.hrtime.bigint() - from.wall) / 1e6, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/**
 * Counts the SQLite statements run on `db` from now on (better-sqlite3 is synchronous: `run` is one statement, and
 * one write transaction unless inside `db.transaction`). Statements prepared earlier are not seen.
 */
function countStatements(db) {
  const counts = { writes: 0, reads: 0, pragmas: 0 };
  const prepare = db.prepare.bind(db);
  db.prepare = (sql) => {
    const statement = prepare(sql);
    const kind = /^\s*(INSERT|UPDATE|DELETE|REPLACE)/i.test(sql) ? "writes" : /^\s*PRAGMA/i.test(sql) ? "pragmas" : "reads";
    return new Proxy(statement, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (key !== "run" && key !== "get" && key !== "all") return typeof value === "function" ? value.bind(target) : value;
        return (...args) => {
          counts[kind]++;
          return value.apply(target, args);
        };
      },
    });
  };
  return counts;
}

/** Bytes LangGraph stored for a thread: checkpoint rows (checkpoint + metadata) and pending-write rows. */
function storedBytes(db) {
  const one = (sql) => Number(Object.values(db.prepare(sql).get())[0] ?? 0);
  return {
    checkpoints: one("SELECT SUM(LENGTH(checkpoint) + LENGTH(metadata)) FROM checkpoints"),
    writes: one("SELECT SUM(LENGTH(value)) FROM writes"),
    writeRows: one("SELECT COUNT(*) FROM writes"),
  };
}

/**
 * yolo's pipeline: analyst, pm, then dev/tea pairs until the fix attempts run out. supersteps = 2 + 2 (k + 1).
 * `gateMs` sums the gate commands' own durations (from their `gate.result` events): the child processes, which a
 * bare graph does not have. `rowWrites: false` turns the thread row's progress writes into no-ops, to show their share;
 * `gate: false` configures no gate at all (tea judges without one), to show the gate check's work in yolo's process;
 * `git: true` runs in a git repository, where each gate run records the trees it judged (src/engine/nodes/gate-tree.ts).
 */
export async function yoloRun(supersteps, { rowWrites = true, gate = true, git = false } = {}) {
  const root = project({ git });
  const maxFixAttempts = (supersteps - 2) / 2 - 1;
  const config = resolveConfig({
    root,
    fileConfig: { maxFixAttempts, gates: gate ? [{ name: "test", command: "true" }] : [], limits: { maxSteps: 10_000 } },
    file: null,
    env: { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
    flags: {},
  });
  const deps = benchDeps(config);
  const session = await openSession(config);
  const statements = countStatements(session.checkpointer.db);
  if (!rowWrites) {
    const update = session.threads.update.bind(session.threads);
    const progress = (patch) => patch.status === undefined && ("currentNode" in patch || "unsettledUsage" in patch);
    session.threads.update = (id, patch, options) => (progress(patch) ? Promise.resolve(true) : update(id, patch, options));
  }
  const started = now();
  const handle = launchLoaded({ deps, session, threadId: "bench", start: { requirement: "add" }, logFile: join(root, "bench.log") });
  let steps = 0;
  let gateMs = 0;
  let gates = 0;
  for await (const e of handle.events) {
    if (e.type === "node.completed") steps++;
    if (e.type === "gate.result") {
      gateMs += e.gate.durationMs;
      gates++;
    }
  }
  const result = await handle.result;
  const { ms, cpuMs } = since(started);
  const stored = storedBytes(session.checkpointer.db);
  const counted = { ...statements }; // the run's statements, not the read below
  // What reading the finished thread's state costs (a run's start and end each do it): LangGraph rebuilds the gate
  // history, a delta channel, from the checkpoints since its last snapshot. Measured after the run's own time.
  const reading = now();
  await buildWorkflowGraph(deps, session.checkpointer).getState({ configurable: { thread_id: "bench" } });
  const getStateMs = since(reading).ms;
  await session.close();
  const bytes = dbBytes(config.dbPath);
  const transcriptBytes = dirBytes(join(config.stateDir, "threads", "bench", "transcripts"));
  rmSync(root, { recursive: true, force: true });
  if (steps !== supersteps || result.status !== "failed") throw new Error(`yolo run took ${steps} steps (${result.status}), expected ${supersteps}`);
  return { ms, cpuMs, bytes, gateMs, gates, statements: counted, stored, transcriptBytes, getStateMs };
}

function dirBytes(dir) {
  let total = 0;
  for (const name of readdirSync(dir)) total += statSync(join(dir, name)).size;
  return total;
}

/**
 * A bare graph with the same number of supersteps: one trivial node looping on a counter. With `commands`, its node
 * also runs that many `true` through yolo's runShell, one every other superstep (as yolo's tea step runs its gate):
 * the control for what a command costs the process that waits for it beyond its own measured time (`commandMs`). A
 * bare graph that only sleeps 11 ms every other step pays about as much (about 0.5 ms a superstep on the bench
 * machine): the work after a wait runs on a cold core. yolo's time without its gate processes is compared with this
 * graph's time without its commands, so both sides pay that alike.
 */
export async function bareRun(supersteps, { commands = 0 } = {}) {
  const root = project();
  const dbPath = join(root, "bare.db");
  const db = openDatabase(dbPath);
  const options = { cwd: root, timeoutS: 30, env: { PATH: process.env.PATH }, capBytes: 4096, keepFullOutput: true };
  let commandMs = 0;
  let ran = 0;
  const State = Annotation.Root({ n: Annotation({ reducer: (_a, b) => b, default: () => 0 }) });
  const next = (s) => ({ n: s.n + 1 });
  const withCommand = async (s) => {
    if (s.n % 2 === 1 && ran < commands) {
      ran++;
      commandMs += (await runShell("true", options)).durationMs;
    }
    return next(s);
  };
  const graph = new StateGraph(State)
    .addNode("step", commands ? withCommand : next)
    .addEdge(START, "step")
    .addConditionalEdges("step", (s) => (s.n >= supersteps ? END : "step"), ["step", END])
    .compile({ checkpointer: createCheckpointer(db) });
  const statements = countStatements(db);
  const started = now();
  const stream = await graph.stream(
    { n: 0 },
    { configurable: { thread_id: "bare" }, durability: "sync", recursionLimit: 10_000, streamMode: ["updates", "custom", "values"] },
  );
  let steps = 0;
  for await (const [mode] of stream) if (mode === "updates") steps++;
  const { ms, cpuMs } = since(started);
  const stored = storedBytes(db);
  db.close();
  const bytes = dbBytes(dbPath);
  rmSync(root, { recursive: true, force: true });
  if (steps !== supersteps) throw new Error(`bare graph took ${steps} steps, expected ${supersteps}`);
  if (ran !== commands) throw new Error(`bare graph ran ${ran} commands, expected ${commands}`);
  return { ms, cpuMs, bytes, statements, stored, commandMs };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/**
 * Wall and CPU milliseconds of this process per `runShell("true")`, spawned directly (Node forks this whole process)
 * or through the spawner helper (a message), in a process whose heap the runs above have grown as a run's does.
 */
export async function commandCost(mode, count = 40) {
  const root = project();
  const options = { cwd: root, timeoutS: 30, env: { PATH: process.env.PATH }, capBytes: 4096, keepFullOutput: true };
  setSpawnerMode(mode);
  try {
    await runShell("true", options);
    const started = now();
    for (let i = 0; i < count; i++) await runShell("true", options);
    const { ms, cpuMs } = since(started);
    return { ms: ms / count, cpuMs: cpuMs / count };
  } finally {
    setSpawnerMode("auto");
    rmSync(root, { recursive: true, force: true });
  }
}

// Five: on a shared 2-core machine three rounds left medians 20% apart from one run to the next.
const ROUNDS = 5;
const STEPS = 200;

export async function benchPipelineOverhead(print) {
  // A run always has a secret to keep out of checkpoints, transcripts and events: at least the model's API key
  // (registered for the process, as a real run's start does; the bare graph's saver scrubs with it too).
  registerSecrets(["sk-bench-0123456789abcdefghijklmnopqrstuvwxyzABCDEF"]);
  await yoloRun(20); // warm up both paths (module loading, JIT)
  await bareRun(20);
  // Interleaved rounds, so drift on a shared machine hits every variant alike; medians per step.
  const runs = { bare: [], bareCommands: [], yolo: [], noRows: [], noGate: [], gitYolo: [], gitNoGate: [] };
  for (let round = 0; round < ROUNDS; round++) {
    runs.bare.push(await bareRun(STEPS));
    runs.yolo.push(await yoloRun(STEPS));
    // As many commands as yolo's gate steps ran (its baseline run comes before the first superstep).
    runs.bareCommands.push(await bareRun(STEPS, { commands: runs.yolo[round].gates - 1 }));
    runs.noRows.push(await yoloRun(STEPS, { rowWrites: false }));
    runs.noGate.push(await yoloRun(STEPS, { gate: false }));
    runs.gitYolo.push(await yoloRun(STEPS, { git: true }));
    runs.gitNoGate.push(await yoloRun(STEPS, { gate: false, git: true }));
  }
  const yolo20 = await yoloRun(20);
  const per = (name, field) => median(runs[name].map((r) => r[field])) / STEPS;
  const bare = per("bare", "ms");
  const bareCpu = per("bare", "cpuMs");
  const gate = per("yolo", "gateMs");
  const gatesRun = runs.yolo[0].gates;
  const rest = median(runs.yolo.map((r) => r.ms - r.gateMs)) / STEPS;
  const line = (label, ms, cpuMs) =>
    `  ${label.padEnd(42)}: ${ms.toFixed(2).padStart(6)} ms / superstep → ${(ms / bare).toFixed(2)}× the bare graph${cpuMs === undefined ? "" : `; CPU ${cpuMs.toFixed(2)} ms → ${(cpuMs / bareCpu).toFixed(2)}×`}`;
  print(`Pipeline overhead (${STEPS} supersteps, SQLite, durability sync, in-process model; median of ${ROUNDS} interleaved runs)`);
  print(`  ${"bare LangGraph graph".padEnd(42)}: ${bare.toFixed(2).padStart(6)} ms / superstep (baseline); CPU ${bareCpu.toFixed(2)} ms`);
  print(line("yolo pipeline, in total", per("yolo", "ms"), per("yolo", "cpuMs")));
  print(
    `  ${"of which the gate processes".padEnd(42)}: ${gate.toFixed(2).padStart(6)} ms / superstep (${gatesRun} runs of \`true\`, ${((gate * STEPS) / gatesRun).toFixed(1)} ms each)`,
  );
  print(line("yolo pipeline without the gate processes", rest));
  const bareCommands = median(runs.bareCommands.map((r) => r.ms - r.commandMs)) / STEPS;
  print(
    `  ${"bare graph running the same commands".padEnd(42)}: ${bareCommands.toFixed(2).padStart(6)} ms / superstep without their own time (+${(bareCommands - bare).toFixed(2)} ms: a wait's after-effect on the work after it)`,
  );
  print(
    `  ${"→ yolo without gate processes vs that".padEnd(42)}: ${(rest / bareCommands).toFixed(2)}× (both without their commands' own time; the target figure)`,
  );
  print(line("same, thread-row progress writes off", median(runs.noRows.map((r) => r.ms - r.gateMs)) / STEPS, per("noRows", "cpuMs")));
  const noGate = per("noGate", "ms");
  print(line("yolo pipeline with no gate configured", noGate, per("noGate", "cpuMs")));
  print(
    `  ${"→ gate check in yolo's process".padEnd(42)}: ${(rest - noGate - (bareCommands - bare)).toFixed(2).padStart(6)} ms / superstep (the gate's work outside its commands' own time and their after-effect: definition walk, output parsing, log file, judging, events)`,
  );
  const gitRest = median(runs.gitYolo.map((r) => r.ms - r.gateMs)) / STEPS;
  const gitNoGate = per("gitNoGate", "ms");
  print(
    `  ${"→ the same in a git repository".padEnd(42)}: ${(gitRest - gitNoGate - (bareCommands - bare)).toFixed(2).padStart(6)} ms / superstep (with the trees each gate run judged recorded: git processes); yolo without gate processes ${(gitRest / bareCommands).toFixed(2)}× the bare graph running the same commands`,
  );
  const costs = { direct: [], helper: [] };
  for (let round = 0; round < ROUNDS; round++) for (const mode of ["direct", "helper"]) costs[mode].push(await commandCost(mode));
  const cost = (mode, f) => median(costs[mode].map((c) => c[f])).toFixed(2);
  print(
    `  ${"a command (`true`) in yolo's process".padEnd(42)}: CPU ${cost("direct", "cpuMs")} ms spawned directly, ${cost("helper", "cpuMs")} ms through the spawner helper (wall ${cost("direct", "ms")} / ${cost("helper", "ms")} ms)`,
  );
  const perStep = (r, f) => f(r) / STEPS;
  const y = runs.yolo[0];
  const b = runs.bare[0];
  print("Per superstep (200-step runs)");
  const sql = (r) =>
    `${perStep(r, (x) => x.statements.writes).toFixed(1)} writes, ${perStep(r, (x) => x.statements.reads).toFixed(1)} reads, ${perStep(r, (x) => x.statements.pragmas).toFixed(1)} pragmas`;
  print(`  SQLite statements: yolo ${sql(y)}; bare ${sql(b)}`);
  print(
    `  checkpoint bytes: yolo ${perStep(y, (r) => r.stored.checkpoints).toFixed(0)} B + ${perStep(y, (r) => r.stored.writes).toFixed(0)} B in ${perStep(y, (r) => r.stored.writeRows).toFixed(1)} pending writes; bare ${perStep(b, (r) => r.stored.checkpoints).toFixed(0)} B + ${perStep(b, (r) => r.stored.writes).toFixed(0)} B in ${perStep(b, (r) => r.stored.writeRows).toFixed(1)}`,
  );
  print(`  transcripts: yolo ${(perStep(y, (r) => r.transcriptBytes) / 1024).toFixed(1)} KiB`);
  print(`  getState of the finished ${STEPS}-step thread (once at a run's start and end): ${median(runs.yolo.map((r) => r.getStateMs)).toFixed(1)} ms`);
  const yolo200 = runs.yolo[0];
  print("Checkpoint database size");
  print(`  yolo after  20 supersteps: ${(yolo20.bytes / 1024).toFixed(0)} KiB`);
  print(
    `  yolo after 200 supersteps: ${(yolo200.bytes / 1024).toFixed(0)} KiB  → ${(yolo200.bytes / yolo20.bytes).toFixed(1)}× for 10× the steps (linear ≈ 10×)`,
  );
  print(`  bare after 200 supersteps: ${(runs.bare[0].bytes / 1024).toFixed(0)} KiB (baseline)`);
}

import type { EventBody } from "../../events/schema.js";
import { whoAmI } from "../../store/thread-store.js";
import type { EngineDeps, EngineLogger } from "../deps.js";
import { inertDeps } from "../inert-deps.js";
import type { ThreadPosition } from "../position.js";
import type { Session } from "../session.js";
import { gateRequiredError, missingGate } from "./gate-required.js";
import type { runLeg } from "./handle.js";
import type { InputDecision } from "./input-decision.js";
import type { LaunchLeg, LaunchPlan } from "./launch.js";
import type { RunOptions, RunResult } from "./options.js";
import { startedEvent } from "./started.js";

// Light on purpose: LangGraph (./start.js) is imported only where a leg needs it, the rest only by the legs that do.

type Run = ReturnType<typeof runLeg>;
type Engine = { deps: EngineDeps; session: Session };
type Graph = Awaited<ReturnType<typeof import("./start.js").readWithLangGraph>>["graph"];
/** A leg's options before its engine is loaded: its deps may be the early ones, its session only the thread index. */
type LegOptions = Omit<RunOptions, "session"> & { session: Pick<Session, "threads"> };
/** Where the thread stands, what the leg runs (null: a new thread's, decided once LangGraph can check it has no checkpoint), and the graph when it was built with the real deps. */
type Standing = { position: ThreadPosition; decision: InputDecision | null; graph: Graph | null };

const NEW: ThreadPosition = { kind: "new" };

/**
 * One leg, under its lease, in one order whether or not its engine is loaded: read where the thread stands and decide
 * what runs (nothing: report it); check, record and say `run.started`; load the engine; run the graph.
 */
export async function driveLeg(plan: LaunchPlan, leg: LaunchLeg, run: Run): Promise<RunResult> {
  const asked = plan.engineAsked();
  const engine = asked ? await asked : null;
  // What is logged before the logger exists is written to it once it does.
  const held = heldLogs();
  const options: LegOptions = {
    deps: engine?.deps ?? (await earlyDeps(plan, leg, held.logger)),
    session: { threads: plan.threads },
    threadId: leg.threadId,
    start: leg.start ? { ...originOf(plan), ...leg.start } : undefined,
    resume: leg.resume,
    logFile: plan.logFile,
    words: plan.words,
  };
  let standing = await stand(plan, leg, options, engine);
  const done = standing.decision?.done;
  if (done) {
    const { complete } = await import("./complete.js");
    const reported = await complete(options, run.emit, done.status, done.reason, standing.position);
    // Only for its log: the usage a killed process left unsettled was counted (see heldLogs).
    if (!engine && held.any())
      await plan.engine().then(
        ({ deps }) => held.flush(deps.logger),
        () => {},
      );
    return reported;
  }
  run.emit(await recordStart(plan, options, standing.position));
  // The event reaches the renderer (a microtask away) before the rest of the engine takes the thread.
  if (!engine) await new Promise((resolve) => setImmediate(resolve));
  let loaded: Engine;
  let heavy: typeof import("./start.js");
  try {
    [loaded, heavy] = await Promise.all([engine ?? plan.engine(), import("./start.js"), options.start ? recordStartCommit(plan, leg.threadId) : null]);
  } catch (error) {
    return await endLeg(options, run, error, standing.position);
  }
  held.flush(loaded.deps.logger);
  const full: RunOptions = { ...options, ...loaded };
  if (!standing.decision) {
    // A new thread: what only LangGraph knows (the id has no checkpoint yet), checked once it is loaded.
    try {
      const read = await heavy.readWithLangGraph(full);
      standing = { position: read.position, decision: await decide(full, read.position), graph: read.graph };
    } catch (error) {
      full.deps.logger.error({ err: error }, "run stopped");
      return await endLeg(full, run, error, NEW);
    }
  }
  return await heavy.runStarted(full, run.emit, run.signal, run.attach, standing.decision as InputDecision, standing.graph);
}

/**
 * Where the thread stands and what the leg runs, decided once from one read: the read the leg was handed (taken under
 * its lease while the front end prepared it); else with the engine when it is loaded; a new thread not yet (its row is
 * created next); a resume as `readLeg` reads it (the checkpoint reader, or LangGraph with the early deps). Whatever
 * refuses the leg is thrown here, before any event.
 */
async function stand(plan: LaunchPlan, leg: LaunchLeg, options: LegOptions, engine: Engine | null): Promise<Standing> {
  // A read handed over before usage a killed process left was settled is not what LangGraph will run from: read again.
  const handed = leg.read?.settled ? leg.read.position : null;
  if (handed) return { position: handed, decision: await decide(options, handed), graph: null };
  if (engine) {
    const { readWithLangGraph } = await import("./start.js");
    const { graph, position } = await readWithLangGraph({ ...options, ...engine });
    return { position, decision: await decide(options, position), graph };
  }
  if (options.start) return { position: NEW, decision: null, graph: null };
  const { readEarly } = await preloadLightResume();
  // The thread's own config: the reader compiles the profile its checkpoint names from it, which is this thread's.
  let position = plan.rows ? await readEarly(plan.config, plan.rows, plan.threads, options.threadId) : null;
  if (!position) {
    const [{ readWithLangGraph }, session] = await Promise.all([import("./start.js"), plan.session()]);
    position = (await readWithLangGraph({ ...options, session })).position;
  }
  return { position, decision: await decide(options, position), graph: null };
}

async function decide(options: LegOptions, position: ThreadPosition): Promise<InputDecision> {
  const { decideInput } = await preloadLightResume();
  return await decideInput({ ...options, threads: options.session.threads }, position);
}

// What is checked and recorded before `run.started` (a required gate, the thread's row, its --known-failure flags); returns the event.
// The row written at the start goes out unsynced, like the lease before it (docs/performance.md): the run's first
// checkpoint, a synced commit, makes both durable; a power cut before it loses a start that had done nothing yet.
const UNSYNCED = { progress: true } as const;

async function recordStart(plan: LaunchPlan, options: LegOptions, position: ThreadPosition): Promise<EventBody> {
  const { deps, threadId, start } = options;
  const { config } = deps;
  const values = position.kind === "new" ? undefined : position.values;
  const mode = start ? (start.profile?.mode ?? "run") : values?.mode === "agent" || values?.mode === "chat" ? values.mode : "run";
  if (start && mode === "run" && config.requireGate) {
    const missing = missingGate(deps);
    if (missing) throw gateRequiredError(missing);
  }
  const requirement = start?.requirement ?? values?.requirement ?? "";
  // The row says where the thread runs now: a resume may come from another working copy or machine.
  const here = { root: config.root, artifacts: config.stateDir, ...whoAmI() };
  if (start) {
    const { startCommit = null, branch = null, repo = null } = start;
    // An id already in the index is refused here (a ThreadError); one with a checkpoint but no row, once LangGraph loads.
    await plan.threads.create({ id: threadId, requirement, model: config.model.name, startCommit, branch, repo, mode, ...here }, UNSYNCED);
  } else await plan.threads.update(threadId, { status: "running", ...here }, UNSYNCED);
  if (config.knownFailureFlags?.length) {
    // `--known-failure` belongs to the thread: kept now, so a later resume without the flag still has it.
    const { threadKnownFailureFlags } = await import("../../store/known-failure-flags.js");
    await threadKnownFailureFlags(config.stateDir, threadId, config.knownFailureFlags).catch(() => {});
  }
  const { logFile, resume } = options;
  return startedEvent({ requirement, config, resumed: !start, logFile, mode, sandbox: deps.sandboxStatus, message: resume?.message, values });
}

// The pending start commit (a dirty tree's snapshot, taken while run.started went out), into the row just created.
async function recordStartCommit(plan: LaunchPlan, threadId: string): Promise<void> {
  if (!plan.origin.pendingStartCommit) return;
  const startCommit = await plan.origin.pendingStartCommit;
  if (!(await plan.threads.update(threadId, { startCommit }))) {
    throw new Error(`thread ${threadId} has no row to record its start commit ${startCommit} in`);
  }
}

/** Ends a leg that failed after `run.started` but before its graph ran: an `error` event, the row and `run.completed`. */
async function endLeg(options: LegOptions, run: Run, error: unknown, position: ThreadPosition): Promise<RunResult> {
  const [{ classify }, { complete }] = await Promise.all([import("./outcome.js"), import("./complete.js")]);
  const { status, code, limit, reason } = classify(error, run.signal, options);
  if (status !== "interrupted") run.emit({ type: "error", code, message: reason });
  return await complete(options, run.emit, status, reason, position, limit);
}

/**
 * The deps a leg reads its thread with and says `run.started` with before its engine loads: the thread's config,
 * agents, gates and sandbox; a resume also its end hooks (it may only report where the thread stands).
 */
async function earlyDeps(plan: LaunchPlan, leg: LaunchLeg, logger: EngineLogger): Promise<EngineDeps> {
  const hooks = leg.start ? undefined : await resumeHooks(plan);
  const { config, agents, facts, env } = plan;
  return {
    ...inertDeps(config),
    agents,
    // Read only where needed (requireGate's check): detecting them waits until run.started is out.
    get gates() {
      return facts.gates;
    },
    sandboxStatus: facts.sandbox,
    hooks,
    baseEnv: env,
    logger,
  };
}

// A resume's hooks (it may only report where the thread stands), with the walls a repository's hooks run in.
async function resumeHooks(plan: LaunchPlan): Promise<EngineDeps["hooks"]> {
  // Most projects have none: their resume loads none of this.
  if (!plan.config.hooks.user && !plan.config.hooks.project) return undefined;
  const [{ setUpHooks }, { chooseSandbox }, { configProtection }] = await Promise.all([
    import("../../hooks/setup.js"),
    import("./facts.js"),
    import("./config-protection.js"),
  ]);
  return setUpHooks(plan.config, plan.env, () => ({ sandbox: chooseSandbox(plan.config, plan.env).sandbox, config: configProtection(plan.config) })).hooks;
}

function originOf(plan: LaunchPlan): Omit<NonNullable<RunOptions["start"]>, "requirement"> {
  const { pendingStartCommit: _, ...origin } = plan.origin;
  return origin;
}

// Lines logged before the run's logger exists, written to it once it does.
function heldLogs() {
  const held: [keyof EngineLogger, object, string | undefined][] = [];
  const hold = (level: keyof EngineLogger) => (obj: object, msg?: string) => void held.push([level, obj, msg]);
  return {
    logger: { info: hold("info"), warn: hold("warn"), error: hold("error") } as EngineLogger,
    any: () => held.length > 0,
    flush(logger: EngineLogger) {
      for (const [level, obj, msg] of held.splice(0)) logger[level](obj, msg);
    },
  };
}

let lightResume: Promise<typeof import("./read-early.js")> | null = null;

/** A resume's light reader, imported once: asked for early, it loads while the rest of the start is prepared. */
export function preloadLightResume(): Promise<typeof import("./read-early.js")> {
  lightResume ??= import("./read-early.js");
  return lightResume;
}

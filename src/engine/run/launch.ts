import type { AgentDefinition } from "../../agents/types.js";
import type { ResolvedConfig } from "../../config/schema.js";
import type { SandboxStatus } from "../../exec/sandbox.js";
import type { ThreadIndex } from "../../store/thread-index.js";
import type { ThreadStore } from "../../store/thread-store.js";
import type { EngineDeps } from "../deps.js";
import type { Session } from "../session.js";
import { startRunEarly } from "./early.js";
import type { RunHandle, RunOptions, RunWords } from "./options.js";

// Light on purpose: nothing here (or imported statically) loads LangGraph, the model client or the tools.

/** What a front end prepared once for every leg of one thread (its config, agents, database, facts). */
export interface LaunchPlan {
  /** The thread's config (its workflow, model, limits): the configured one compiled for its profile. */
  config: ResolvedConfig;
  /** The configured config: the checkpoint reader compiles a resumed thread's profile from it. */
  baseConfig: ResolvedConfig;
  agents: Map<string, AgentDefinition>;
  /** The opened database's thread index (the lease and the thread's row). */
  threads: ThreadStore;
  /** The checkpoint reader of a resumed thread on SQLite, when it stood in for LangGraph; else null. */
  rows: Required<Pick<ThreadIndex, "checkpointRows">> | null;
  /** The whole session (loads LangGraph's checkpointer). */
  session(): Promise<Session>;
  /** What `run.started` states and the gate check needs, found without the engine (src/engine/run/facts.ts). */
  facts: { sandbox: SandboxStatus; gates: EngineDeps["gates"] };
  /** The environment the run's hooks and commands start from. */
  env: NodeJS.ProcessEnv;
  logFile: string;
  words: RunWords;
  /** Where a new thread starts: its commit (or the one still being taken), branch and repository. */
  origin: Omit<NonNullable<RunOptions["start"]>, "requirement" | "profile"> & { pendingStartCommit?: Promise<string> | null };
  /** The run's engine: its deps and the whole session, built once (a question answered inline starts another leg). */
  engine(): Promise<{ deps: EngineDeps; session: Session }>;
  /** The engine when it was already asked for, else null. */
  engineAsked(): Promise<{ deps: EngineDeps; session: Session }> | null;
}

/** One leg of the thread: a new thread's first one, or a resume (with a reply, a review or a message). */
export interface LaunchLeg {
  threadId: string;
  start?: Pick<NonNullable<RunOptions["start"]>, "requirement" | "profile">;
  resume?: RunOptions["resume"];
}

/**
 * The one way a leg of a thread starts. Every leg says `run.started` as early as it can: a new thread once its row
 * is recorded, a resume once it read where the thread stands (with the checkpoint reader when it can stand in for
 * LangGraph), before the model client, the tools and the MCP servers load; a leg after the engine loaded starts
 * with it.
 */
export async function launch(plan: LaunchPlan, leg: LaunchLeg): Promise<RunHandle> {
  const { logFile, words } = plan;
  if (leg.start) {
    const { pendingStartCommit, ...origin } = plan.origin;
    const start = { ...leg.start, ...origin };
    return startRunEarly({
      config: plan.config,
      threads: plan.threads,
      threadId: leg.threadId,
      start,
      pendingStartCommit,
      logFile,
      words,
      facts: plan.facts,
      load: plan.engine,
    });
  }
  const asked = plan.engineAsked();
  if (asked) {
    const [{ startRun }, { deps, session }] = await Promise.all([import("./start.js"), asked]);
    return startRun({ deps, session, threadId: leg.threadId, resume: leg.resume, logFile, words });
  }
  const early = {
    config: plan.config,
    agents: plan.agents,
    gates: plan.facts.gates,
    sandboxStatus: plan.facts.sandbox,
    hooks: (await import("../../hooks/setup.js")).setUpHooks(plan.config, plan.env).hooks,
    baseEnv: plan.env,
  };
  const load = () => plan.engine().then(({ deps }) => deps);
  if (plan.rows) {
    // run.started from the checkpoint reader when it stands in exactly; else resumeRunEarly's way, LangGraph first.
    const { resumeRunLight } = await preloadLightResume();
    const { threads, rows, baseConfig, session } = plan;
    return resumeRunLight({ threadId: leg.threadId, resume: leg.resume, logFile, words, baseConfig, threads, rows, early, session, load });
  }
  const { resumeRunEarly } = await import("./start.js");
  return resumeRunEarly({ session: await plan.session(), threadId: leg.threadId, resume: leg.resume, logFile, words, early, load });
}

let lightResume: Promise<typeof import("./resume-early.js")> | null = null;

/** The light resume's module, imported once: asked for early, it loads while the rest of the start is prepared. */
export function preloadLightResume(): Promise<typeof import("./resume-early.js")> {
  lightResume ??= import("./resume-early.js");
  return lightResume;
}

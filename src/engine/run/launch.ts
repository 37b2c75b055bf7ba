import type { AgentDefinition } from "../../agents/types.js";
import type { ResolvedConfig } from "../../config/schema.js";
import type { SandboxStatus } from "../../exec/sandbox.js";
import type { ThreadIndex } from "../../store/thread-index.js";
import type { ThreadStore } from "../../store/thread-store.js";
import type { EngineDeps } from "../deps.js";
import type { Session } from "../session.js";
import { runLeg } from "./handle.js";
import { driveLeg } from "./leg.js";

export { preloadLightResume } from "./leg.js";
import type { RunHandle, RunOptions } from "./options.js";
import type { LegRead } from "./read-early.js";

// Light on purpose: nothing here (or imported statically) loads LangGraph, the model client or the tools.

/** What a front end prepared once for every leg of one thread (its config, agents, database, facts). */
export interface LaunchPlan {
  /** The thread's config (its workflow, model, limits): the configured one compiled for its profile. */
  config: ResolvedConfig;
  agents: Map<string, AgentDefinition>;
  /** The opened database's thread index (the lease and the thread's row). */
  threads: ThreadStore;
  /** The checkpoint reader of the database on SQLite, which can stand in for LangGraph to read a resumed thread; else null. */
  rows: Required<Pick<ThreadIndex, "checkpointRows">> | null;
  /** The whole session (loads LangGraph's checkpointer). */
  session(): Promise<Session>;
  /** What `run.started` states and the gate check needs, found without the engine (src/engine/run/facts.ts); the gates when first read. */
  facts: { sandbox: SandboxStatus | undefined; gates: EngineDeps["gates"] };
  /** The environment the run's hooks and commands start from. */
  env: NodeJS.ProcessEnv;
  logFile: string;
  words: RunOptions["words"];
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
  /**
   * The read `readLeg` took for this leg (src/engine/run/read-early.ts) while the front end prepared it, under the
   * leg's lease: the leg decides from its position instead of reading the thread again. Used by one leg only.
   */
  read?: LegRead;
}

/**
 * The one way a leg of a thread starts: run, resume, fork, agent and chat alike (src/engine/run/leg.ts). A leg reads
 * where its thread stands and says `run.started` as early as it can, before the model client, the tools and the MCP
 * servers load; a leg whose engine is loaded already (a later leg, or a caller holding one) runs the same steps with it.
 * What refuses the leg rejects its result before any event; whatever fails after `run.started` ends with an `error`
 * event and `run.completed`.
 */
export function launch(plan: LaunchPlan, leg: LaunchLeg): RunHandle {
  const run = runLeg(leg.threadId);
  return run.handle(
    (async () => {
      // One process per thread at a time: the lease is taken before anything is read and released when the leg ends.
      const lease = leg.read?.lease ?? (await plan.threads.acquireLease(leg.threadId));
      try {
        return await driveLeg(plan, leg, run);
      } finally {
        await lease.release();
      }
    })(),
  );
}

import { assertModelConfigured, hasModel } from "../../config/resolve.js";
import type { ResolvedConfig } from "../../config/schema.js";
import { unknownThreadError } from "../../errors.js";
import { assertSameRepository } from "../../store/same-repository.js";
import type { ThreadIndex } from "../../store/thread-index.js";
import type { Lease, ThreadStore } from "../../store/thread-store.js";
import type { ThreadPosition } from "../position.js";
import type { Session } from "../session.js";
import { readLatestState } from "../stored-thread.js";
import { profileOfValues, type ThreadProfile } from "../thread-profile.js";

import type { RunOptions } from "./options.js";
import { needsModel } from "./input-decision.js";

export { decideInput, needsModel } from "./input-decision.js";

// Light (no LangGraph): how a resumed leg reads where its thread stands and decides what it runs before its engine
// loads. src/engine/run/launch.ts imports it for every resume (the CLI asks for it early, see preloadLightResume).

/**
 * Where a resumed thread stands, read by the checkpoint reader on SQLite, or null when LangGraph must read it: the
 * reader stands in only for exactly what LangGraph would see (it decodes the latest checkpoint, and no killed process
 * left usage in the thread's row to settle into that checkpoint first).
 */
export async function readEarly(
  config: ResolvedConfig,
  rows: Pick<ThreadIndex, "checkpointRows">,
  threads: Pick<ThreadStore, "get">,
  threadId: string,
): Promise<ThreadPosition | null> {
  const row = await threads.get(threadId);
  if (!row || row.unsettledUsage) return null;
  // The reader compiles the thread's own profile (named in its checkpoint) from `config`, as `show` does.
  return readLatestState(config, rows, threadId)?.position ?? null;
}

/** A resumed leg's one read: where its thread stands, the profile it runs with, and the lease it was read under. */
export interface LegRead {
  position: ThreadPosition;
  /** False when a killed process left usage to settle into the latest checkpoint first: the leg reads again after settling it. */
  settled: boolean;
  profile: ThreadProfile;
  /** The leg's lease, taken before the read (null for a fork's source, which is only read). */
  lease: Lease | null;
  /** No model is configured and the leg needs none: it only reports where the thread stands. */
  modelless: boolean;
}

/**
 * Reads a resumed thread (or a fork's source) once, before its leg is prepared, so the preparation (its agents, the
 * branch) and the leg decide from the same read; taken under the thread's lease, so nothing runs the thread between
 * this read and the leg. Refuses, in this order, before anything else is touched: an unknown thread, one of another
 * repository, and one that needs a model when none is configured.
 */
export async function readLeg(input: {
  config: ResolvedConfig;
  rows: Pick<ThreadIndex, "checkpointRows"> | null;
  threads: ThreadStore;
  session: () => Promise<Session>;
  threadId: string;
  /** A fork's source: read, not leased, one without a checkpoint is unknown, and its fork always needs a model. */
  fork?: boolean;
  resume: NonNullable<RunOptions["resume"]>;
  /** This working copy's repository identity (src/git/repo-identity.ts). */
  repo: Promise<string>;
  /** A recorded session stands in for the model. */
  replay: boolean;
}): Promise<LegRead> {
  const { threads, threadId, config, replay } = input;
  const lease = input.fork ? null : await threads.acquireLease(threadId);
  try {
    const read = await readOnce(input);
    await assertSameRepository(threads, threadId, await input.repo);
    if (input.fork || needsModel(read.position, input.resume) || replay) assertModelConfigured(config, { replay });
    return { ...read, lease, modelless: !hasModel(config) && !replay };
  } catch (error) {
    await lease?.release();
    throw error;
  }
}

// The read itself: the checkpoint reader when it reads exactly what LangGraph would, else LangGraph.
async function readOnce(input: Parameters<typeof readLeg>[0]): Promise<Pick<LegRead, "position" | "settled" | "profile">> {
  const { threads, threadId } = input;
  const row = await threads.get(threadId);
  const settled = !row?.unsettledUsage;
  let position = input.rows && settled ? await readEarly(input.config, input.rows, threads, threadId) : null;
  if (!position) {
    const [{ threadPosition }, session] = await Promise.all([import("../inspect.js"), input.session()]);
    position = await threadPosition(input.config, session, threadId);
  }
  if (position.kind === "new" && (input.fork || !row)) throw unknownThreadError(threadId);
  const profile = position.kind === "new" ? { mode: "run" as const } : profileOfValues(position.values);
  return { position, settled, profile };
}

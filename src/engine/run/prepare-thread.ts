import type { ThreadIndex } from "../../store/thread-index.js";
import type { DeferredSession } from "../session.js";
import { preloadLightResume } from "./leg.js";
import { type ConfigStep, type Threaded, threadSetup } from "./prepare-config.js";
import type { LegRead } from "./read-early.js";
import { type LaunchRequest, threadRead } from "./request.js";

/** Where a fork's new thread was copied from: the source's step and the node that ran it. */
export interface Forked {
  source: string;
  step: number;
  node: string;
}

export interface ThreadStep {
  /** The checkpoint reader on SQLite (it stands in for LangGraph to read a resumed thread), else null. */
  rows: Required<Pick<ThreadIndex, "checkpointRows">> | null;
  repo: string;
  modelless: boolean;
  thread: Threaded;
  /** The one read the first leg decides from (none for a new thread, or a fork's new one). */
  read: LegRead | null;
  forked: Forked | null;
  /** Gives back the lease the thread was read under and closes the database, then rejects with `error`. */
  release(error: unknown): Promise<never>;
}

/**
 * The leg's read step: a resumed thread (or a fork's source) read once, and checked, by readLeg under the thread's
 * lease; then the thread's config and agents (a resumed thread's from the profile its checkpoint names); then the fork.
 */
export async function threadStep(request: LaunchRequest, before: ConfigStep, opened: DeferredSession): Promise<ThreadStep> {
  const closing = (error: unknown) => opened.close().then(() => Promise.reject(error));
  const fork = request.kind === "fork";
  // On SQLite the checkpoint reader stands in for LangGraph when it reads the latest checkpoint exactly
  // (src/engine/stored-thread.ts), through the session's own connection; a fork's new thread is read with LangGraph.
  const rows = request.kind !== "new" && !fork && opened.rows ? await opened.rows().catch(closing) : null;
  const read =
    request.kind === "new"
      ? null
      : await preloadLightResume()
          .then(({ readLeg }) =>
            readLeg({
              config: before.baseConfig,
              rows,
              threads: opened.threads,
              session: opened.session,
              threadId: threadRead(request),
              fork,
              resume: request.kind === "fork" ? {} : request.reply,
              repo: before.identity,
              replay: request.replay !== null,
            }),
          )
          .catch(closing);
  const release = (error: unknown) => Promise.resolve(read?.lease?.release()).then(() => closing(error));
  const repo = await before.identity;
  const thread: Threaded = before.early ?? (await threadSetup(before.baseConfig, read?.profile ?? { mode: "run" }).catch(release));
  const forked = request.kind === "fork" ? await forkFrom(before, opened, request).catch(closing) : null;
  return { rows, repo, modelless: read?.modelless ?? false, thread, read: fork ? null : read, forked, release };
}

// Forks the new thread from the source's checkpoint.
async function forkFrom(before: ConfigStep, opened: DeferredSession, request: LaunchRequest & { kind: "fork" }): Promise<Forked> {
  const [{ forkThread }, session] = await Promise.all([import("../history.js"), opened.session()]);
  const entry = await forkThread(before.config, session, request.source, request.from, request.threadId);
  return { source: request.source, step: entry.step, node: entry.node };
}

import type { ResolvedConfig } from "../config/schema.js";
import { unknownThreadError } from "../errors.js";
import { buildWorkflowGraph } from "./graph.js";
import { inertDeps } from "./inert-deps.js";
import { configForProfile, readThreadProfile } from "./modes.js";
import { profileOfValues } from "./thread-profile.js";
import type { Session } from "./session.js";
import type { PipelineStateType } from "../state/pipeline.js";
import type { ThreadPosition } from "./position.js";
import { positionFromLangGraph } from "./read-position.js";
import { withRefusedGates } from "./gate-refused.js";

export { inertDeps };

/** A thread's latest state and where it stands, from its checkpoints. */
export async function inspectThread(
  config: ResolvedConfig,
  session: Session,
  threadId: string,
): Promise<{ values: PipelineStateType; position: ThreadPosition }> {
  const position = await threadPosition(config, session, threadId);
  if (position.kind === "new") throw unknownThreadError(threadId);
  return { values: await withRefusedGates(position.values, config.stateDir, threadId), position };
}

/**
 * Where a thread stands as LangGraph reads it, with the graph of its own profile; `new` when it has no checkpoint. The
 * latest checkpoint read for the profile is the one the saved answer is taken from (positionFromLangGraph checks that
 * getState read the same one): two reads, not three.
 */
export async function threadPosition(config: ResolvedConfig, session: Session, threadId: string): Promise<ThreadPosition> {
  const tuple = await session.checkpointer.getTuple({ configurable: { thread_id: threadId } });
  const profile = tuple ? profileOfValues(tuple.checkpoint.channel_values as { mode?: unknown; agentId?: unknown }) : { mode: "run" as const };
  const graph = buildWorkflowGraph(inertDeps(configForProfile(config, profile)), session.checkpointer);
  return await positionFromLangGraph(graph, { getTuple: async () => tuple }, threadId);
}

/** The config a thread's graph is built from: its own mode's (an `agent` or `chat` thread runs a one-node workflow). */
export async function threadConfig(config: ResolvedConfig, session: Session, threadId: string): Promise<ResolvedConfig> {
  return configForProfile(config, (await readThreadProfile(session, threadId)) ?? { mode: "run" });
}

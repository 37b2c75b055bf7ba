import type { ResolvedConfig } from "../config/schema.js";
import { loadInspect, type Session, type ThreadPosition } from "../engine/api.js";
import { ThreadError } from "../errors.js";

/** True when yolo has a model to talk to (an API key or an endpoint); a replay needs neither. */
export function hasModel(config: ResolvedConfig): boolean {
  return Boolean(config.model.apiKey || config.model.baseURL);
}

/**
 * Whether resuming the thread this way will call a model. An unknown thread is a ThreadError here, before any
 * question of keys. A finished thread only reports its outcome (unless a message continues its conversation); a
 * waiting one without its answer only repeats its question; a thread killed before its first checkpoint is
 * explained by the engine. None of these needs a key.
 */
export async function resumeNeedsModel(
  config: ResolvedConfig,
  session: Session,
  threadId: string,
  resume: { answer?: string; review?: unknown; message?: string },
): Promise<boolean> {
  const row = await session.threads.get(threadId);
  const { inspectThread } = await loadInspect();
  let position: Awaited<ReturnType<typeof inspectThread>>["position"];
  try {
    position = (await inspectThread(config, session, threadId)).position;
  } catch (error) {
    // In the index without a checkpoint: the engine says there is nothing to resume and how to start again.
    if (row && error instanceof ThreadError) return false;
    throw error;
  }
  return positionNeedsModel(position, resume);
}

/** resumeNeedsModel's answer for a thread whose checkpoint was read (by LangGraph or the checkpoint reader). */
export function positionNeedsModel(position: ThreadPosition, resume: { answer?: string; review?: unknown; message?: string }): boolean {
  if (position.kind === "finished") return resume.message !== undefined;
  if (position.kind === "waiting") return resume.answer !== undefined || resume.review !== undefined;
  // An answered thread goes on with its saved answer (a model call); a second answer is refused before any.
  if (position.kind === "answered") return resume.answer === undefined && resume.review === undefined;
  return true;
}

import type { ResolvedConfig } from "../config/schema.js";
import { ThreadError } from "../errors.js";
import { inspectThread } from "./inspect.js";
import type { ReviewResponse } from "./review.js";
import { decideInput } from "./run/input-decision.js";
import type { Session } from "./session.js";

// LangGraph's id for writes of no task, and its resume channel (see position.ts savedAnswer).
const NULL_TASK_ID = "00000000-0000-0000-0000-000000000000";
const RESUME = "__resume__";

/** A human's reply given outside a run (the web view): an answer to a question, or a review. */
export type SavedReply = { answer: string; review?: undefined } | { review: ReviewResponse; answer?: undefined };

/**
 * Saves a reply on a waiting thread without running any agent: the null-task `__resume__` write on its latest
 * checkpoint, exactly what `yolo resume --answer/--approve/--reject` leaves when it is stopped before the asking
 * node's step is saved. The thread is then "answered" (position.ts), and the next `yolo resume <thread>` hands the
 * reply to the node that asked. The reply is checked by the same decision a resume makes (decideInput), so a
 * mismatch (an answer to a review, a reply to a thread that does not wait) is refused with the same words.
 */
export async function saveReply(config: ResolvedConfig, session: Session, threadId: string, reply: SavedReply): Promise<void> {
  if (reply.review?.action === "edit")
    throw new ThreadError("An edit cannot be saved without running the thread: approve or reject it here, or give the edit when you resume it.");
  const at = { configurable: { thread_id: threadId } };
  const before = await session.checkpointer.getTuple(at);
  const { position } = await inspectThread(config, session, threadId);
  const decided = await decideInput({ threadId, resume: reply, deps: { config, agents: new Map() }, threads: session.threads }, position);
  if (!("reply" in decided) || decided.reply === undefined) {
    throw new ThreadError(`Thread ${threadId} is not waiting for an answer (${position.kind}); nothing was saved.`, {
      kind: "reply-not-awaited",
      thread: threadId,
    });
  }
  const tuple = await session.checkpointer.getTuple(at);
  // A step saved while the position was read means someone resumed the thread meanwhile: the reply is not for it.
  if (!tuple || tuple.checkpoint.id !== before?.checkpoint.id) {
    throw new ThreadError(`Thread ${threadId} moved on while the reply was being saved; reload it and answer what it waits on now.`);
  }
  await session.checkpointer.putWrites(tuple.config, [[RESUME, decided.reply]], NULL_TASK_ID);
}

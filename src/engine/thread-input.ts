import { ThreadError, unknownThreadError } from "../errors.js";
import type { ThreadProfile } from "./modes.js";
import type { PipelineStateType } from "../state/pipeline.js";
import type { ThreadPosition } from "./position.js";

/** The first input of a thread: the requirement, and for `agent` / `chat` the profile and the first message. */
export function startInput(requirement: string, profile: ThreadProfile): Partial<PipelineStateType> {
  if (profile.mode === "run") return { requirement };
  return { requirement, mode: profile.mode, agentId: profile.mode === "agent" ? profile.agentId : null, conversation: [{ role: "user", text: requirement }] };
}

/**
 * A follow-up message: a finished `agent` / `chat` thread runs again from its start with the message added to
 * its conversation (LangGraph starts a finished thread over with the new input, keeping its state).
 */
export function followUp(threadId: string, position: ThreadPosition, message: string, alsoAnswer: boolean): { value: unknown } {
  if (alsoAnswer) throw new ThreadError("A follow-up message cannot also answer a question or a review: give one or the other.");
  if (!message.trim()) throw new ThreadError("The follow-up message is empty.");
  if (position.kind === "new") throw unknownThreadError(threadId);
  if (modeOf(position.values) === "run") {
    throw new ThreadError(`Thread ${threadId} runs a workflow: follow-up messages are for agent and chat threads. Start a new run instead.`, {
      kind: "follow-up-to-workflow",
      thread: threadId,
    });
  }
  if (position.kind === "waiting")
    throw new ThreadError(`Thread ${threadId} waits for an answer first.`, { kind: "follow-up-while-waiting", thread: threadId });
  if (position.kind === "pending" || position.kind === "answered")
    throw new ThreadError(`Thread ${threadId} has not finished its last message: resume it without a message first.`, {
      kind: "follow-up-while-pending",
      thread: threadId,
    });
  return { value: { conversation: [{ role: "user", text: message }] } };
}

/** The thread's mode as stored in its state; threads from before modes existed are `run`. */
export function modeOf(values: PipelineStateType): "run" | "agent" | "chat" {
  return values.mode === "agent" || values.mode === "chat" ? values.mode : "run";
}

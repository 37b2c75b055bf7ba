import { ThreadError, unknownThreadError } from "../../errors.js";
import type { RunStatus } from "../../events/outcome.js";
import type { ThreadStore } from "../../store/thread-store.js";
import type { EngineDeps } from "../deps.js";
import type { ReviewResponse } from "../review.js";
import { followUp, startInput } from "../thread-input.js";
import { answerWords, type ThreadPosition } from "../position.js";
import { finalOutcome } from "./complete.js";
import type { RunOptions } from "./options.js";

// Light (no LangGraph): what a leg runs is decided here; input.ts wraps a reply in LangGraph's Command.

/** What a leg does: run the graph with `value`, resume its interrupt with `reply`, or nothing (`done`). */
export type InputDecision =
  | { value: unknown; reply?: undefined; done?: undefined }
  | { reply: unknown; value?: undefined; done?: undefined }
  | { done: { status: RunStatus; reason: string }; value?: undefined; reply?: undefined };

/** Decides the graph input, or that there is nothing to run. Refuses what cannot be meant. */
export async function decideInput(
  options: Pick<RunOptions, "threadId" | "start" | "resume"> & { deps: Pick<EngineDeps, "config" | "agents">; threads: Pick<ThreadStore, "get"> },
  position: ThreadPosition,
): Promise<InputDecision> {
  const { threadId } = options;
  if (options.start) {
    if (position.kind !== "new")
      throw new ThreadError(`Thread ${threadId} already exists; start a new run or resume it.`, { kind: "thread-exists", thread: threadId });
    return { value: startInput(options.start.requirement, options.start.profile ?? { mode: "run" }) };
  }
  const { answer, review, message } = options.resume ?? {};
  const given = answer !== undefined || review !== undefined;
  if (message !== undefined) return followUp(threadId, position, message, given);
  switch (position.kind) {
    case "new": {
      // In the index but without a checkpoint: the process was killed before LangGraph saved the first step.
      const row = await options.threads.get(threadId);
      if (row) {
        throw new ThreadError(
          `Thread ${threadId} has no checkpoint: the run was stopped before its first step, so there is nothing to resume. Start it again with the same requirement.`,
          { kind: "no-checkpoint", thread: threadId, requirement: row.requirement },
        );
      }
      throw unknownThreadError(threadId);
    }
    case "finished":
      if (given) throw new ThreadError(`Thread ${threadId} has finished; it is not waiting for an answer.`);
      return { done: finalOutcome(position.values) };
    case "waiting":
      if (!given) return { done: { status: "waiting", reason: waitingReason(position) } };
      return { reply: await responseFor(position, answer, review, options.deps) };
    case "answered":
      // The saved answer is the one LangGraph hands back; a second would be silently dropped, so it is refused.
      if (given)
        throw new ThreadError(
          `Thread ${threadId} was already answered (${answerWords(position.answer)}) by a command stopped before it finished; resume it without an answer to go on with that answer.`,
          { kind: "already-answered", thread: threadId, answer: answerWords(position.answer) },
        );
      return { value: null };
    case "pending":
      if (given)
        throw new ThreadError(`Thread ${threadId} is not waiting for an answer; resume it without an answer or a review.`, {
          kind: "reply-not-awaited",
          thread: threadId,
        });
      return { value: null };
  }
}

/**
 * Whether a resume with this input will call a model, from the same read `decideInput` decides from; asked first, so a
 * leg that needs no model (a finished thread reporting its outcome, a waiting one repeating its question, one with no
 * checkpoint, which `decideInput` refuses) needs no key. A finished thread runs only to continue its conversation; a
 * waiting one only with its reply; an answered one goes on with its saved answer (a second answer is refused first).
 */
export function needsModel(position: ThreadPosition, resume: { answer?: string; review?: unknown; message?: string }): boolean {
  const given = resume.answer !== undefined || resume.review !== undefined;
  if (position.kind === "new") return false;
  if (position.kind === "finished") return resume.message !== undefined;
  if (position.kind === "waiting") return given;
  if (position.kind === "answered") return !given;
  return true;
}

/** What a waiting thread waits on, in words. */
export function waitingReason(position: Extract<ThreadPosition, { kind: "waiting" }>): string {
  return position.request.kind === "approval" ? `${position.node} waits for a review: ${position.question}` : `${position.askedBy} asks: ${position.question}`;
}

/** The resume value for what the thread waits on; a mismatch or an unusable edit is refused before anything runs. */
async function responseFor(
  position: Extract<ThreadPosition, { kind: "waiting" }>,
  answer: string | undefined,
  review: ReviewResponse | undefined,
  deps: Pick<EngineDeps, "config" | "agents">,
): Promise<unknown> {
  const request = position.request;
  if (request.kind === "question") {
    if (answer === undefined)
      throw new ThreadError(`${position.askedBy} asked a question, not for a review: answer it.`, {
        kind: "wrong-reply",
        awaits: "question",
        by: position.askedBy,
      });
    return answer;
  }
  if (review === undefined)
    throw new ThreadError(`${position.node} waits for a review, not an answer: approve, edit or reject it.`, {
      kind: "wrong-reply",
      awaits: "approval",
      by: position.node,
    });
  if (review.action === "edit") {
    // Loaded for an edit only: the roles' schemas (zod, YAML) are not needed to resume otherwise.
    const { applyEdit, reviewedRole } = await import("../review.js");
    const checked = applyEdit(reviewedRole(deps.config.workflow, request.reviews, deps.agents), request.reviews, review.content);
    if ("error" in checked) throw new ThreadError(`The edit cannot be used: ${checked.error}. The thread still waits for its review.`);
  }
  return review;
}

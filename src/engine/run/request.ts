import type { ConfigFlags } from "../../config/load-project.js";
import type { RunFlags } from "../../config/run-flags.js";
import type { RecordedExchange } from "../../llm/recording.js";
import type { ThreadProfile } from "../thread-profile.js";
import type { LaunchLeg } from "./launch.js";
import type { RunOptions } from "./options.js";

/** Every option a run, agent, chat or resume command was given, as parsed (absent: not given). */
export type LaunchFlags = ConfigFlags & RunFlags;

/** What a resumed thread is given: a reply to its question, a review, a message after its end, or nothing. */
export type LaunchReply = NonNullable<RunOptions["resume"]>;

/** A recorded model session to replay instead of calling a model, read and checked by the front end. */
export interface LaunchReplay {
  file: string;
  exchanges: RecordedExchange[];
  model?: string;
}

/**
 * What a front end asks of the engine, as data: which thread, what kind of leg, what it is given, and the flags as
 * parsed. Everything between this and the leg's events — config and its trust, the tree lock, the thread's one read,
 * the workspace and branch, a fork — is the engine's (src/engine/run/prepare.ts).
 */
export type LaunchRequest = {
  /** Where the command was started: the project is found from here. */
  cwd: string;
  threadId: string;
  flags: LaunchFlags;
  replay: LaunchReplay | null;
} & (
  | { kind: "new"; requirement: string; profile?: ThreadProfile }
  | { kind: "resume" | "answer" | "approve" | "edit" | "reject" | "follow-up"; reply: LaunchReply }
  /** A new thread `threadId` from `source`'s checkpoint `from` (a step number or checkpoint id), then resumed. */
  | { kind: "fork"; source: string; from: string }
);

/** The kind of resume a reply makes: an answer, a review's action, a message after the end, or a plain resume. */
export function replyKind(reply: LaunchReply): Exclude<LaunchRequest["kind"], "new" | "fork"> {
  if (reply.review) return reply.review.action;
  if (reply.answer !== undefined) return "answer";
  return reply.message !== undefined ? "follow-up" : "resume";
}

/** The thread whose checkpoint the request reads: a fork's source, else its own. */
export function threadRead(request: LaunchRequest): string {
  return request.kind === "fork" ? request.source : request.threadId;
}

/** The first leg the request runs: a new thread's start, or a resume (a fork's new thread resumes from its copy). */
export function firstLeg(request: LaunchRequest): LaunchLeg {
  if (request.kind === "new") return { threadId: request.threadId, start: { requirement: request.requirement, profile: request.profile } };
  return { threadId: request.threadId, resume: request.kind === "fork" ? {} : request.reply };
}

import { type LaunchFlags, type LaunchReply, type LaunchRequest, replyKind, type ReviewResponse, type ThreadProfile } from "../engine/api.js";
import { ConfigError } from "../errors.js";
import { newThreadId } from "../store/thread-id.js";
import { testCommandGiven } from "./load-config.js";
import { loadReplay } from "./run-setup.js";

/** What a command asks for, from its arguments alone: the rest of the request comes from its flags (launchRequest). */
export type Asked =
  | { kind: "new"; requirement: string; profile?: Exclude<ThreadProfile, { mode: "run" }> }
  | { kind: "resume"; thread: string; reply: LaunchReply }
  | { kind: "fork"; source: string; from: string };

/**
 * `yolo resume <thread> [--answer | --approve | --edit | --reject | --from] [message…]` as asked: continue a thread
 * (with a reply, a review or a message after its end), or fork it. `thread` is the one `--last` found, if given;
 * `review` the one its flags give (reviewFromFlags).
 */
export function resumeAsked(thread: string, message: string | undefined, flags: LaunchFlags, review: ReviewResponse | undefined): Asked {
  if (flags.from !== undefined) {
    if (review || flags.answer !== undefined || message !== undefined)
      throw new ConfigError("--from starts a new thread: it cannot also answer the old one's question or take a message.");
    return { kind: "fork", source: thread, from: flags.from };
  }
  return { kind: "resume", thread, reply: { answer: flags.answer, review, message } };
}

/**
 * The engine's request for what a command asked: the thread (a new id for a new thread or a fork), the kind of leg,
 * the flags as parsed, and the replay session (read and checked first: a bad one is the first refusal).
 */
export async function launchRequest(cwd: string, flags: LaunchFlags, asked: Asked): Promise<LaunchRequest> {
  const replay = await loadReplay(cwd, flags);
  if (flags.testCmd !== undefined) testCommandGiven(flags.testCmd);
  const base = { cwd, flags, replay };
  if (asked.kind === "new") return { ...base, kind: "new", threadId: newThreadId(), requirement: asked.requirement, profile: asked.profile };
  if (asked.kind === "fork") return { ...base, kind: "fork", threadId: newThreadId(), source: asked.source, from: asked.from };
  return { ...base, kind: replyKind(asked.reply), threadId: asked.thread, reply: asked.reply };
}

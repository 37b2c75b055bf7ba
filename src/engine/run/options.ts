import type { YoloError } from "../../errors.js";
import type { ResumeFact } from "../../events/facts.js";
import type { LimitKind, RunStatus } from "../../events/outcome.js";
import type { YoloEvent } from "../../events/schema.js";
import type { EngineDeps } from "../deps.js";
import type { ThreadProfile } from "../modes.js";
import type { EscalationPayload } from "../nodes/escalate-node.js";
import type { ApprovalPayload } from "../nodes/human-node.js";
import type { ReviewResponse } from "../review.js";
import type { Session } from "../session.js";

/** What a paused thread waits on. */
export type WaitingRequest = EscalationPayload | ApprovalPayload;

/**
 * How the front end that started the run words its facts. The engine knows no command lines: the CLI passes
 * src/cli/wording's words (`yolo resume k3f9 --max-steps N`); events, hooks and the result carry what it says.
 */
export interface RunWords {
  /** The command that continues a resumable thread. */
  resumeCommand(fact: ResumeFact): string;
  /** The reason shown for an error (with a `fact`) that stopped a run of `thread`. */
  errorReason(error: YoloError, thread: string): string;
}

export interface RunOptions {
  deps: EngineDeps;
  session: Session;
  threadId: string;
  /** Start a new thread with this requirement (for `agent` / `chat`: the user's message)… */
  start?: { requirement: string; startCommit?: string | null; branch?: string | null; repo?: string | null; profile?: ThreadProfile };
  /**
   * …or continue an existing one, optionally answering the question (or the review) it waits on; or, for a
   * finished `agent` / `chat` thread, with a follow-up `message` that continues the conversation.
   */
  resume?: { answer?: string; review?: ReviewResponse; message?: string };
  /** Path of this run's log file, named in events and error messages. */
  logFile: string;
  /** The front end's wording of resume commands and stop reasons. */
  words: RunWords;
}

export interface RunResult {
  threadId: string;
  status: RunStatus;
  /** Which limit stopped the run, when status is "limit" (it picks the exit code). */
  limit: LimitKind | null;
  exitCode: number;
  reason: string;
  /** The question the thread waits on, when status is "waiting". */
  question: string | null;
  /** What the thread waits on, when status is "waiting": a question, or a review with its artifact. */
  request: WaitingRequest | null;
  /** How to continue the thread, as a fact; null when it ended for good (passed, failed, a config error). */
  resume: ResumeFact | null;
  /** `resume` in the front end's words. */
  resumeCommand: string | null;
}

export interface RunHandle {
  threadId: string;
  /** Every event of the run, buffered until read; ends after `run.completed`. */
  events: AsyncIterable<YoloEvent>;
  result: Promise<RunResult>;
  /** Stops the run; the last completed step's checkpoint stands and the thread stays resumable. */
  cancel(): void;
  /** Lets the running step finish and checkpoint, then stops (status "interrupted"); the thread stays resumable. */
  stopAfterStep(): void;
}

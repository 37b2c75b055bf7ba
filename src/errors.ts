import type { ErrorFact, LimitFact, ThreadFact } from "./events/facts.js";
import type { LimitKind, RunStatus } from "./events/outcome.js";

/** Every failure yolo expects carries a stable string `code`; only `cli/main.ts` turns codes into exit codes. */
export class YoloError extends Error {
  readonly code: string;
  /** What happened as data, for a front end to word (src/cli/wording); the message is the engine's neutral wording. */
  readonly fact?: ErrorFact;
  constructor(code: string, message: string, options?: { cause?: unknown; fact?: ErrorFact }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    if (options?.fact) this.fact = options.fact;
  }
}

/** Bad flags, bad config, bad agent files: the user must change something before anything runs (exit 2). */
export class ConfigError extends YoloError {
  readonly problems: string[];
  constructor(message: string, problems: string[] = [], options?: { cause?: unknown; fact?: ErrorFact }) {
    super("config", problems.length ? `${message}\n${problems.map((p) => `  - ${p}`).join("\n")}` : message, options);
    this.problems = problems;
  }
}

/** A bound (steps, turns, budget, time, a loop) was reached; the thread is checkpointed and resumable. Its kind picks the exit code. */
export class LimitError extends YoloError {
  readonly kind: LimitKind;
  constructor(kind: LimitKind, message: string, options?: { cause?: unknown; fact?: ErrorFact }) {
    super("limit", message, options);
    this.kind = kind;
  }
}

/** A limit reached, with the setting that raises it: the message says what happened and that the thread is saved. */
export function limitError(limit: LimitFact, resumable: string): LimitError {
  return new LimitError(limit.kind, `${limit.said} ${resumable}`, { fact: { kind: "limit", limit } });
}

/** The model provider failed: auth, quota, or retries exhausted (exit 5). */
export class ProviderError extends YoloError {
  readonly status?: number;
  constructor(message: string, status?: number, options?: { cause?: unknown }) {
    super("provider", message, options);
    this.status = status;
  }
}

/** A thread id that does not exist, or a thread in a state the command cannot act on (exit 2). */
export class ThreadError extends YoloError {
  constructor(message: string, fact?: ThreadFact) {
    super("thread", message, fact ? { fact } : undefined);
  }
}

/** The one message for a thread id the project's database does not have: show, report, history and resume agree. */
export function unknownThreadError(threadId: string): ThreadError {
  return new ThreadError(`No thread ${threadId} in this project.`, { kind: "unknown-thread", thread: threadId });
}

/**
 * The outcome an error stands for; with `exitCodeFor` the one mapping from errors to exit codes (a run's
 * classification and the CLI's exit for errors outside a run both use it).
 */
export function outcomeOfError(error: unknown): { status: RunStatus; limit: LimitKind | null } {
  if (error instanceof LimitError) return { status: "limit", limit: error.kind };
  if (error instanceof ProviderError) return { status: "provider_error", limit: null };
  if (error instanceof ConfigError || error instanceof ThreadError) return { status: "config_error", limit: null };
  // A hook that stopped a run ends it like a stop request (resumable).
  if (error instanceof YoloError && error.code === "hook") return { status: "interrupted", limit: null };
  return { status: "error", limit: null };
}

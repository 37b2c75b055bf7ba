import type { LimitKind } from "./events/outcome.js";

/** Every failure yolo expects carries a stable string `code`; only `cli/main.ts` turns codes into exit codes. */
export class YoloError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** Bad flags, bad config, bad agent files: the user must change something before anything runs (exit 2). */
export class ConfigError extends YoloError {
  readonly problems: string[];
  constructor(message: string, problems: string[] = [], options?: { cause?: unknown }) {
    super("config", problems.length ? `${message}\n${problems.map((p) => `  - ${p}`).join("\n")}` : message, options);
    this.problems = problems;
  }
}

/** A bound (steps, turns, budget, time, a loop) was reached; the thread is checkpointed and resumable. Its kind picks the exit code. */
export class LimitError extends YoloError {
  readonly kind: LimitKind;
  constructor(kind: LimitKind, message: string, options?: { cause?: unknown }) {
    super("limit", message, options);
    this.kind = kind;
  }
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
  constructor(message: string) {
    super("thread", message);
  }
}

/** The one message for a thread id the project's database does not have: show, report, history and resume agree. */
export function unknownThreadError(threadId: string): ThreadError {
  return new ThreadError(`No thread ${threadId} in this project. List threads with \`yolo threads\`.`);
}

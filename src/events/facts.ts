import type { LimitKind } from "./outcome.js";

/**
 * Facts the engine returns about a stopped run or a refused request, for a front end to word. The engine never
 * writes a command line (`yolo resume …`, `--max-steps`): src/cli/wording/ turns these into the commands and
 * messages a user reads; the LangGraph server and library callers get the engine's own neutral message.
 */

/** What a resumable thread waits on: an answer to a question, a review, or nothing (plain resume). */
export type Awaits = "question" | "approval" | null;

/** How to continue a thread that stopped resumably. */
export interface ResumeFact {
  thread: string;
  awaits: Awaits;
}

/** Which setting raises the limit that stopped a run; `graph-steps` is LangGraph's own per-leg backstop. */
export type LimitSetting = "maxSteps" | "maxTime" | "maxTokens" | "maxCost" | "maxTurns" | "graph-steps";

/** A reached limit: its kind (the exit code), the setting that raises it, and what happened in words (no commands). */
export interface LimitFact {
  kind: LimitKind;
  setting: LimitSetting;
  /** What was reached, e.g. "The run reached its step limit: 3 of 3 steps, resumes included, before dev." */
  said: string;
}

/** Why a thread cannot be acted on as asked; each kind is worded by the front end with the command that helps. */
export type ThreadFact =
  | { kind: "unknown-thread"; thread: string }
  | { kind: "invalid-thread-id"; thread: string }
  | { kind: "thread-exists"; thread: string }
  | { kind: "no-checkpoint"; thread: string; requirement: string }
  | { kind: "reply-not-awaited"; thread: string }
  /** A killed resume saved an answer the thread has not taken yet: another answer would be dropped. */
  | { kind: "already-answered"; thread: string; answer: string }
  | { kind: "wrong-reply"; awaits: "question" | "approval"; by: string }
  | { kind: "follow-up-to-workflow"; thread: string }
  | { kind: "follow-up-while-waiting"; thread: string }
  | { kind: "follow-up-while-pending"; thread: string }
  | { kind: "no-such-checkpoint"; thread: string; from: string }
  | { kind: "fork-needs-one-node"; thread: string; step: number; node: string }
  /** The thread belongs to repository `repo` (last run in `root`, on `host`), not to this working copy's `here`. */
  | { kind: "other-repository"; thread: string; repo: string; root: string; host: string | null; here: string };

/**
 * A warning said during a run whose advice names a front end's command or option (`yolo hooks trust`,
 * `--require-gate`): the front end words it (the run's deps carry its `noticeText`); the engine's words are neutral.
 */
export type NoticeFact =
  /** The repository's hooks are not trusted and do not run: `hooks` lists them (event and command). */
  | { kind: "hooks-untrusted"; configFile: string; hooks: string }
  /** The run has no gate, for `reason`. */
  | { kind: "no-gate"; reason: string }
  /** `node`'s model wrote its tool calls in its reply text (`shape`: "<tool_call> tags", …) and yolo parsed them. */
  | { kind: "text-tool-calls"; node: string; shape: string };

/** Everything an error may carry for its front end to word. */
export type ErrorFact =
  | ThreadFact
  | { kind: "limit"; limit: LimitFact }
  | { kind: "gate-required"; missing: string }
  | { kind: "storage"; said: string }
  | { kind: "branch-needs-git"; root: string }
  | { kind: "dirty-tree-for-branch" }
  | { kind: "thread-without-branch"; thread: string; branch: string }
  | { kind: "replay-unreadable"; file: string; said: string }
  | { kind: "replay-empty"; file: string }
  | { kind: "database-unusable"; said: string }
  /** Neither an API key nor a base URL: `servers` lists local servers to point at, with their URLs. */
  | { kind: "no-model-endpoint"; apiKeyEnv: string; servers: string };

import type { Price } from "../report/data.js";
import type { HistoryEntry } from "../engine/history-entries.js";
import type { ThreadPosition } from "../engine/position.js";
import type { ReviewResponse } from "../engine/review.js";
import type { ModelSummary } from "../eval/summary.js";
import type { TaskResult } from "../eval/types.js";
import type { PipelineStateType } from "../state/pipeline.js";
import type { ThreadRow } from "../store/thread-store.js";
import type { ToolCallLine } from "./tool-calls.js";

/**
 * What the web view reads and writes, given by `yolo serve` (src/cli/commands/serve.ts) from the same functions
 * `yolo threads`, `show`, `history` and `resume` use: the server renders, it never reads the store its own way.
 */
export interface ThreadSource {
  /** The threads `yolo threads` (or `--all`) lists, as they stand now (a killed run is "interrupted"), newest first. */
  list(): Promise<ThreadRow[]>;
  /** One thread's row as it stands now, or null. */
  row(id: string): Promise<ThreadRow | null>;
  /** A thread's latest state and position (`yolo show`'s reading), or null when it has no checkpoint. */
  state(id: string): Promise<{ values: PipelineStateType; position: ThreadPosition } | null>;
  /**
   * What a thread's `state` rests on (its latest checkpoint and the writes saved against it), from one indexed query;
   * equal versions read the same state. Null when the store cannot say it cheaply: the state is then read every time.
   */
  stateVersion(id: string): Promise<string | null>;
  /** Whether the store gives those versions (SQLite), so what the list reads is kept between requests. */
  keepsReadings?: boolean;
  /** The id of a thread's latest checkpoint, or null: read every poll while its page is open, so one indexed query. */
  latestCheckpoint(id: string): Promise<string | null>;
  /** Every checkpoint, oldest first (`yolo history`). */
  history(id: string): Promise<HistoryEntry[]>;
  /** The change since the thread's start commit (`yolo show --diff`), or why there is none. */
  diff(row: ThreadRow): Promise<{ patch: string } | { note: string }>;
  /** The tool calls the thread's agents made, from their transcripts (none when those are on another machine). */
  toolCalls(row: ThreadRow): ToolCallLine[];
  /** Saves a reply on a waiting thread without running it; `yolo resume <thread>` then goes on with it. */
  reply(id: string, reply: { answer: string } | { review: ReviewResponse }): Promise<void>;
  /** The evals whose results `yolo eval` stored under .yolo/eval/runs/. */
  evals(): EvalReading[];
  /**
   * An eval task's thread (`eval` and `modelDir` as the eval's folders name them), read from the task's own worktree
   * and database, where the eval ran it; null when the eval has no such task or the thread is gone. Close it after.
   */
  evalThread(eval_: string, modelDir: string, task: string): Promise<EvalThread | null>;
  /** The command that continues a thread, in the CLI's words (the server words no command itself). */
  resumeCommand(id: string): string;
  /** The configured price (model.price), or null: costs are then left out. */
  price: Price | null;
}

/** One eval (a task file run under a name): its stored results and the summary `yolo eval` prints from them. */
export interface EvalReading {
  name: string;
  summaries: ModelSummary[];
  results: EvalTaskResult[];
}

/** A task's stored result, with the folder of its model under the eval's runs (`modelSlug` of its label). */
export type EvalTaskResult = TaskResult & { modelDir: string };

/** An eval task's thread: the readings of the task's own database, its row, the result that names it. */
export interface EvalThread {
  source: ThreadSource;
  row: ThreadRow;
  eval: string;
  result: EvalTaskResult;
  close(): Promise<void>;
}

import type { EscalationPayload } from "./nodes/escalate-node.js";
import type { ApprovalPayload } from "./nodes/human-node.js";
import type { PipelineStateType } from "../state/pipeline.js";

/** Where a thread stands, read from its latest checkpoint. */
export type ThreadPosition =
  | { kind: "new" }
  | { kind: "finished"; values: PipelineStateType }
  | { kind: "waiting"; values: PipelineStateType; question: string; askedBy: string; node: string; request: EscalationPayload | ApprovalPayload }
  | { kind: "pending"; values: PipelineStateType; next: string[] }
  /**
   * Answered, not yet taken: the answer was saved (LangGraph's null-task `__resume__` write on the latest checkpoint)
   * but the process that gave it was killed before the asking node's step was saved. Resuming without input hands
   * `answer` back to that node's interrupt.
   */
  | {
      kind: "answered";
      values: PipelineStateType;
      question: string;
      askedBy: string;
      node: string;
      request: EscalationPayload | ApprovalPayload;
      answer: unknown;
    };

/** A write saved beside a checkpoint, as LangGraph's pendingWrites and the checkpoint reader give them. */
export type SavedWrite = readonly [taskId: string, channel: string, value: unknown];

// LangGraph's id for writes of no task (an input, a Command's resume value), and its resume channel.
const NULL_TASK_ID = "00000000-0000-0000-0000-000000000000";
const RESUME = "__resume__";

/**
 * The answer a resume saved on the latest checkpoint and no node has taken yet: the first null-task `__resume__`
 * write, the one LangGraph's interrupt() takes when the graph is resumed with no input (pregel/algo.ts
 * `_scratchpad`, `consumeNullResume`). Undefined when there is none.
 */
export function savedAnswer(writes: readonly SavedWrite[]): { answer: unknown } | undefined {
  const w = writes.find(([task, channel]) => task === NULL_TASK_ID && channel === RESUME);
  return w ? { answer: w[2] } : undefined;
}

/**
 * What positionOf reads of a checkpoint: LangGraph's StateSnapshot has this shape, and so has the checkpoint
 * reader's view (src/store/checkpoint-view.ts), so both sources decide the same way.
 */
export interface PositionSource {
  values: unknown;
  next: readonly string[];
  tasks: readonly { name: string; interrupts?: readonly { value?: unknown }[] }[];
  createdAt?: string;
  config?: { configurable?: { checkpoint_id?: unknown } };
}

/** Where a thread stands; `saved` is the latest checkpoint's saved answer (savedAnswer), which getState leaves out. */
export function positionOf(snapshot: PositionSource, saved?: { answer: unknown }): ThreadPosition {
  const values = snapshot.values as PipelineStateType;
  if (!snapshot.config?.configurable?.checkpoint_id && snapshot.next.length === 0 && !snapshot.createdAt) return { kind: "new" };
  if (snapshot.next.length === 0) {
    // A node that finished and saved its writes just before a kill, without the step's checkpoint: LangGraph leaves it
    // out of `next` but keeps it in `tasks`; `invoke(null)` applies its writes and goes on, so the thread is not done.
    if (snapshot.tasks.length > 0) return { kind: "pending", values, next: snapshot.tasks.map((t) => t.name) };
    return { kind: "finished", values };
  }
  for (const task of snapshot.tasks) {
    const pending = task.interrupts?.[0];
    if (pending) {
      const payload = pending.value as EscalationPayload | ApprovalPayload;
      const asked =
        payload.kind === "approval"
          ? { values, question: payload.prompt, askedBy: payload.node, node: task.name, request: payload }
          : { values, question: payload.question, askedBy: payload.askedBy, node: task.name, request: payload };
      return saved ? { kind: "answered", ...asked, answer: saved.answer } : { kind: "waiting", ...asked };
    }
  }
  return { kind: "pending", values, next: [...snapshot.next] };
}

/** A saved answer in words: the answer's text, or a review's action (with a rejection's reason). */
export function answerWords(answer: unknown): string {
  if (typeof answer === "string") return JSON.stringify(answer);
  const review = answer as { action?: unknown; reason?: unknown } | null;
  if (review && typeof review.action === "string") return review.action === "reject" ? `reject: ${String(review.reason ?? "")}` : review.action;
  return JSON.stringify(answer) ?? String(answer);
}

import type { EscalationPayload } from "./nodes/escalate-node.js";
import type { ApprovalPayload } from "./nodes/human-node.js";
import type { PipelineStateType } from "../state/pipeline.js";

/** Where a thread stands, read from its latest checkpoint. */
export type ThreadPosition =
  | { kind: "new" }
  | { kind: "finished"; values: PipelineStateType }
  | { kind: "waiting"; values: PipelineStateType; question: string; askedBy: string; node: string; request: EscalationPayload | ApprovalPayload }
  | { kind: "pending"; values: PipelineStateType; next: string[] };

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

export function positionOf(snapshot: PositionSource): ThreadPosition {
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
      if (payload.kind === "approval") return { kind: "waiting", values, question: payload.prompt, askedBy: payload.node, node: task.name, request: payload };
      return { kind: "waiting", values, question: payload.question, askedBy: payload.askedBy, node: task.name, request: payload };
    }
  }
  return { kind: "pending", values, next: [...snapshot.next] };
}

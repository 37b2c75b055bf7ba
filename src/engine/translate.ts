import type { EventBody } from "../events/schema.js";
import type { EscalationPayload } from "./nodes/escalate-node.js";
import type { ApprovalPayload } from "./nodes/human-node.js";
import type { Route } from "./routing.js";
import type { PipelineStateType } from "./state.js";

/** The stream modes the engine asks LangGraph for; translate() understands exactly these. */
export const STREAM_MODES = ["updates", "custom", "values"] as const;

/**
 * The one place that knows LangGraph's stream shapes. `custom` chunks are yolo events emitted by nodes;
 * `updates` tell which nodes just finished; the `values` after them feed the same routers the graph uses,
 * so every `route` event states the decision the graph really took.
 */
export async function* translate(
  stream: AsyncIterable<unknown>,
  routers: Record<string, (state: PipelineStateType) => Route>,
  onNodeDone: (node: string) => void,
): AsyncGenerator<EventBody> {
  let finished: string[] = [];
  for await (const item of stream) {
    const [mode, chunk] = item as [string, unknown];
    if (mode === "custom") {
      yield chunk as EventBody;
    } else if (mode === "updates") {
      finished = Object.keys(chunk as object).filter((k) => !k.startsWith("__"));
      for (const node of finished) onNodeDone(node);
    } else if (mode === "values") {
      for (const node of finished) {
        const router = routers[node];
        if (!router) continue;
        const route = router(chunk as PipelineStateType);
        yield { type: "route", from: node, to: route.to, reason: route.reason };
      }
      finished = [];
    }
  }
}

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

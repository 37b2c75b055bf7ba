import type { ResolvedConfig } from "../config/schema.js";
import { nodeRole } from "../workflow/node-roles.js";
import { plural } from "../text/plural.js";
import type { PipelineStateType } from "../state/pipeline.js";
import { BASELINE_NODE_NAME } from "./thread-profile.js";

/** One checkpoint of a thread, as `yolo history` lists it. */
export interface HistoryEntry {
  checkpointId: string;
  step: number;
  /** The node whose completion made this checkpoint (`input` for the run's input). */
  node: string;
  createdAt: string;
  /** What would run next from here. */
  next: string[];
  summary: string;
}

/** What an entry is made from: LangGraph's state snapshot, or the checkpoint reader's view, as the same facts. */
export interface HistorySnapshot {
  checkpointId: string;
  parentId?: string;
  source?: unknown;
  step?: unknown;
  createdAt?: string;
  next: readonly string[];
  values: unknown;
}

/** A thread's history entries from its checkpoints, oldest first. */
export function historyEntries(snapshots: HistorySnapshot[], config: ResolvedConfig): HistoryEntry[] {
  const byId = new Map(snapshots.map((s) => [s.checkpointId, s]));
  const childOf = new Map(snapshots.map((s) => [s.parentId, s]));
  // The baseline's result reaches the state with the first node that writes: its line says the one the thread took.
  const baseline = snapshots.map((s) => (s.values as PipelineStateType | undefined)?.gateBaseline).find(Boolean) ?? null;
  return snapshots.map((s) => {
    const parent = s.parentId ? byId.get(s.parentId) : undefined;
    const node = s.source === "input" ? "input" : parent ? parent.next.join(", ") || "?" : "?";
    const values = s.values as PipelineStateType;
    return {
      checkpointId: s.checkpointId,
      step: typeof s.step === "number" ? s.step : -1,
      node,
      createdAt: s.createdAt ?? "",
      next: [...s.next],
      summary:
        node === "input"
          ? summarizeInput(values, childOf.get(s.checkpointId)?.values as PipelineStateType | undefined)
          : summarize(node, node === BASELINE_NODE_NAME ? { ...values, gateBaseline: values.gateBaseline ?? baseline } : values, config),
    };
  });
}

/**
 * What an input checkpoint brought in. It is saved before the input is applied, so the input shows in the
 * checkpoint after it: a follow-up message added to the conversation, or the thread's requirement.
 */
function summarizeInput(before: PipelineStateType, after: PipelineStateType | undefined): string {
  const said = (v: PipelineStateType | undefined) => v?.conversation?.length ?? 0;
  if (after && said(before) > 0 && said(after) > said(before)) {
    const message = after.conversation.at(-1);
    if (message?.role === "user" && message.text) return `message: ${message.text}`;
  }
  const requirement = after?.requirement || before.requirement;
  return requirement ? `requirement: ${requirement}` : "input";
}

/** One line saying what a node's checkpoint holds. */
function summarize(node: string, v: PipelineStateType, config: ResolvedConfig): string {
  if (node === "escalate") return `answer: ${v.answers.at(-1)?.answer ?? ""}`;
  if (node === BASELINE_NODE_NAME) return baselineSummary(v);
  const spec = config.workflow.nodes[node];
  if (!spec) return "";
  if (spec.kind === "switch") {
    const d = [...v.switchDecisions].reverse().find((x) => x.node === node);
    return d ? `case ${d.taken} → ${d.to}` : "";
  }
  if (spec.kind === "human") {
    const r = [...v.reviews].reverse().find((x) => x.by === node);
    return r ? `${r.action}${r.reason ? `: ${r.reason}` : ""}` : "";
  }
  if (spec.kind === "gate") return gates(v);
  if (v.escalateToHuman && v.askedBy === node) return `asks: ${v.question}`;
  // The built-in role's own line (a user role's and a custom agent's: its note's summary, custom's line).
  return nodeRole(node, spec).history(v, node);
}

/** The gate baseline in one line: each gate's result before any agent, or why there is none. */
function baselineSummary(v: PipelineStateType): string {
  const b = v.gateBaseline;
  if (!b) return "";
  if (b.noGate) return `no gate: ${b.noGate}`;
  return `baseline: ${b.gates.map((g) => `${g.name} ${g.passed ? "passed" : "failed"}${g.tests !== null ? ` (${plural(g.tests, "test")})` : ""}`).join(", ")}`;
}

function gates(v: PipelineStateType): string {
  const g = v.lastGates;
  return g.length ? `gates ${g.filter((x) => x.passed).length}/${g.length} passed${v.gateBlocked ? " — blocked" : ""}` : "no gates";
}

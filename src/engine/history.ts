import type { ResolvedConfig } from "../config/schema.js";
import { ThreadError, unknownThreadError } from "../errors.js";
import { plural } from "../text/plural.js";
import { buildWorkflowGraph } from "./graph.js";
import { BASELINE_NODE } from "./nodes/gate-baseline.js";
import { inertDeps, threadConfig } from "./inspect.js";
import type { Session } from "./session.js";
import { roleOf } from "../roles/registry.js";
import type { PipelineStateType } from "./state.js";

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

/** A thread's checkpoints, oldest first, read through LangGraph's own state history. */
export async function threadHistory(baseConfig: ResolvedConfig, session: Session, threadId: string): Promise<HistoryEntry[]> {
  const config = await threadConfig(baseConfig, session, threadId);
  const graph = buildWorkflowGraph(inertDeps(config), session.checkpointer);
  const snapshots = [];
  for await (const s of graph.getStateHistory({ configurable: { thread_id: threadId } })) snapshots.push(s);
  if (!snapshots.length) throw unknownThreadError(threadId);
  snapshots.reverse();
  const byId = new Map(snapshots.map((s) => [s.config.configurable?.checkpoint_id as string, s]));
  const childOf = new Map(snapshots.map((s) => [s.parentConfig?.configurable?.checkpoint_id as string | undefined, s]));
  return snapshots.map((s) => {
    const parentId = s.parentConfig?.configurable?.checkpoint_id as string | undefined;
    const parent = parentId ? byId.get(parentId) : undefined;
    const node = s.metadata?.source === "input" ? "input" : parent ? parent.next.join(", ") || "?" : "?";
    const values = s.values as PipelineStateType;
    return {
      checkpointId: s.config.configurable?.checkpoint_id as string,
      step: s.metadata?.step ?? -1,
      node,
      createdAt: s.createdAt ?? "",
      next: [...s.next],
      summary:
        node === "input"
          ? summarizeInput(values, childOf.get(s.config.configurable?.checkpoint_id as string)?.values as PipelineStateType | undefined)
          : summarize(node, values, config),
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
  if (node === BASELINE_NODE) return baselineSummary(v);
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
  // The role's own line (a user role's and a custom agent's: its note's summary).
  return roleOf(spec.agent ?? node, spec.gates !== undefined && spec.gates !== false).history(v, node);
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

/**
 * Forks a new thread from one checkpoint of another (`--from` a step number or a checkpoint id): the new thread
 * starts with that checkpoint's state, as if the node that made it had just completed, so what ran next there
 * runs next here. The original thread is untouched.
 */
export async function forkThread(baseConfig: ResolvedConfig, session: Session, threadId: string, from: string, newThreadId: string): Promise<HistoryEntry> {
  const config = await threadConfig(baseConfig, session, threadId);
  const history = await threadHistory(baseConfig, session, threadId);
  const entry = /^-?\d+$/.test(from)
    ? history.filter((h) => h.step === Number(from)).at(-1)
    : (history.find((h) => h.checkpointId === from) ?? uniqueSuffix(history, from));
  if (!entry) throw new ThreadError(`Thread ${threadId} has no checkpoint "${from}".`, { kind: "no-such-checkpoint", thread: threadId, from });
  if (entry.node === "input" || entry.node === "?" || entry.node.includes(",")) {
    throw new ThreadError(`Cannot fork from step ${entry.step} (${entry.node}); pick a checkpoint made by one node.`, {
      kind: "fork-needs-one-node",
      thread: threadId,
      step: entry.step,
      node: entry.node,
    });
  }
  const graph = buildWorkflowGraph(inertDeps(config), session.checkpointer);
  const source = await graph.getState({ configurable: { thread_id: threadId, checkpoint_id: entry.checkpointId } });
  const values = source.values as PipelineStateType;
  await graph.updateState({ configurable: { thread_id: newThreadId } }, values, entry.node);
  const original = await session.threads.get(threadId);
  await session.threads.create({
    id: newThreadId,
    requirement: values.requirement,
    model: original?.model ?? config.model.name,
    root: config.root,
    repo: original?.repo ?? null,
    mode: original?.mode ?? "run",
    artifacts: config.stateDir,
  });
  await session.threads.update(newThreadId, { status: "pending", currentNode: entry.node, reason: `forked from ${threadId} at step ${entry.step}` });
  return entry;
}

function uniqueSuffix(history: HistoryEntry[], text: string): HistoryEntry | undefined {
  const matches = history.filter((h) => h.checkpointId.endsWith(text) || h.checkpointId.startsWith(text));
  return matches.length === 1 ? matches[0] : undefined;
}

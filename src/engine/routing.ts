import { type BUILT_IN_FLAGS, holds, parseCondition } from "../workflow/conditions.js";
import { END_NODE, type Workflow, type WorkflowEdge } from "../workflow/schema.js";
import type { PipelineStateType } from "../state/pipeline.js";

/** A routing decision with the reason shown to the user (`route` events). */
export interface Route {
  to: string;
  reason: string;
}

type RoutingState = Pick<
  PipelineStateType,
  "escalateToHuman" | "needsArchitecture" | "gateBlocked" | "fixAttempts" | "askedBy" | "flags" | "reviews" | "switchRoute"
> &
  Partial<Pick<PipelineStateType, "lastGates" | "staleGate">>;

const WORDS: Record<string, [string, string]> = {
  needs_architecture: ["architecture needed", "no architecture needed"],
  gate_blocked: ["gate blocked", "gate passed"],
  fix_attempts_remain: ["fix attempts remain", "no fix attempts left"],
};

/** Every flag's value: the built-in ones from the state yolo keeps, then the ones agents set. */
export function flagValues(state: RoutingState, maxFixAttempts: number): Record<string, boolean> {
  const builtIn: Record<(typeof BUILT_IN_FLAGS)[number], boolean> = {
    needs_architecture: state.needsArchitecture,
    gate_blocked: state.gateBlocked,
    fix_attempts_remain: state.fixAttempts <= maxFixAttempts,
  };
  return { ...state.flags, ...builtIn };
}

/**
 * Where the run goes after `node`. Pure, and the only routing logic: the compiled graph's conditional edges
 * and the `route` events both call it. An agent that asked a human goes to `escalate`; a human reviewer that
 * rejected sends the work back to the agent it reviews; a switch goes where its decision said; otherwise the
 * node's edges are tried in order and the first whose condition holds (or that has none) is taken.
 */
export function routeFrom(node: string, workflow: Workflow, state: RoutingState, maxFixAttempts: number): Route {
  if (node === "escalate") return { to: state.askedBy ?? firstNode(workflow), reason: "answer delivered" };
  const spec = workflow.nodes[node];
  if (spec?.kind === "agent" && state.escalateToHuman) return { to: "escalate", reason: "the agent asked a human" };
  // Nothing ships that no gate ran on: files changed after the latest passing gate send the run back to it.
  if (spec?.kind === "agent" && state.staleGate && workflow.nodes[state.staleGate]) {
    return { to: state.staleGate, reason: "files changed after the gate passed" };
  }
  if (spec?.kind === "human") {
    const review = [...state.reviews].reverse().find((r) => r.by === node);
    if (review?.action === "reject") {
      return review.node
        ? { to: review.node, reason: `rejected: ${review.reason ?? "no reason given"}` }
        : { to: END_NODE, reason: `rejected: ${review.reason ?? "no reason given"}` };
    }
  }
  if (spec?.kind === "switch") {
    if (state.switchRoute?.node === node) return { to: state.switchRoute.to, reason: "switch decision" };
  }
  const flags = flagValues(state, maxFixAttempts);
  const edges = workflow.edges.filter((e) => e.from === node && e.case === undefined);
  for (const edge of edges) {
    if (!edge.when) return { to: edge.to, reason: fallbackReason(edges, flags, state, maxFixAttempts) };
    const terms = parseCondition(edge.when);
    if (terms && holds(terms, flags)) return { to: edge.to, reason: conditionReason(edge, state, maxFixAttempts) };
  }
  return { to: END_NODE, reason: `no edge from ${node} applies` };
}

function describe(flag: string, value: boolean): string {
  const words = WORDS[flag];
  return words ? words[value ? 0 : 1] : value ? flag : `not ${flag}`;
}

// Renderers put a reason in parentheses, so a reason has none of its own.
function conditionReason(edge: WorkflowEdge, state: RoutingState, max: number): string {
  const terms = parseCondition(edge.when!) ?? [];
  return terms
    .map((t) =>
      t.flag === "fix_attempts_remain" && !t.negated && state.gateBlocked
        ? `fix attempt ${state.fixAttempts}/${max}`
        : ungated(describe(t.flag, !t.negated), state),
    )
    .join(", ");
}

// Never say "gate passed" when no gate ran, or when a gate failed without blocking (failures already there at the
// baseline, a gate that is not required).
function ungated(words: string, state: RoutingState): string {
  if (words !== "gate passed" || !state.lastGates) return words;
  if (state.lastGates.length === 0) return "no gate ran";
  return state.lastGates.some((g) => !g.passed) ? "gate failed without blocking" : words;
}

/** Why none of the conditional edges before the fallback applied, in words. */
function fallbackReason(edges: WorkflowEdge[], flags: Record<string, boolean>, state: RoutingState, max: number): string {
  const reasons: string[] = [];
  for (const edge of edges) {
    if (!edge.when) break;
    const failed = (parseCondition(edge.when) ?? []).find((t) => (flags[t.flag] === true) === t.negated);
    if (failed) reasons.push(ungated(describe(failed.flag, flags[failed.flag] === true), state));
  }
  const text = [...new Set(reasons)].join(", ");
  const note = !reasons.includes("no fix attempts left") ? "" : max === 0 ? ": maxFixAttempts is 0" : `: ${max}/${max} used`;
  return text ? text + note : "";
}

function firstNode(workflow: Workflow): string {
  return workflow.edges.find((e) => e.from === "start")?.to ?? END_NODE;
}

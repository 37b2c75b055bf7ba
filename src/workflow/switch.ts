import { DEFAULT_CASE, type WorkflowEdge } from "./schema.js";

export interface SwitchResolution {
  /** The node the run goes to. */
  to: string;
  /** The case that was taken: a declared route, or `default`. */
  taken: string;
  /** Why the raw answer was not used as is, when it was not. */
  fallback: string | null;
  /** Set when even `default` had no edge and the first edge was used. */
  warning: string | null;
}

/**
 * Decides a switch node's route from whatever the model answered. Pure and total: an exact case goes to its
 * edge; anything else (unknown, empty, wrong type, no call at all) goes to the `default` edge; with no
 * `default` edge, to the first edge leaving the node, with a warning. A model can never stop a run by choosing badly.
 */
export function resolveSwitch(node: string, cases: string[], edges: WorkflowEdge[], raw: unknown): SwitchResolution {
  const out = edges.filter((e) => e.from === node);
  const chosen = typeof raw === "string" ? raw : null;
  if (chosen !== null && chosen !== DEFAULT_CASE && cases.includes(chosen)) {
    const edge = out.find((e) => e.case === chosen);
    if (edge) return { to: edge.to, taken: chosen, fallback: null, warning: null };
  }
  const why =
    raw === undefined || raw === null
      ? "the model made no switch_decision"
      : typeof raw !== "string"
        ? `the model answered a ${Array.isArray(raw) ? "list" : typeof raw}, not a case`
        : raw === ""
          ? "the model answered an empty case"
          : raw === DEFAULT_CASE
            ? null
            : `"${raw}" is not one of the cases`;
  const fallback = out.find((e) => e.case === DEFAULT_CASE);
  if (fallback) return { to: fallback.to, taken: DEFAULT_CASE, fallback: why, warning: null };
  const first = out[0];
  return {
    to: first?.to ?? "end",
    taken: DEFAULT_CASE,
    fallback: why,
    warning: `switch ${node} has no default edge; took its first edge (to ${first?.to ?? "end"})`,
  };
}

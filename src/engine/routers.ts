import type { PipelineStateType } from "./state.js";

export const END_ROUTE = "__end__";

/** A routing decision with the reason shown to the user (`route` events). */
export interface Route {
  to: string;
  reason: string;
}

type RouterState = Pick<
  PipelineStateType,
  "escalateToHuman" | "needsArchitecture" | "gateBlocked" | "fixAttempts" | "askedBy" | "verdict" | "lastGates"
>;

function escalation(state: RouterState): Route | null {
  return state.escalateToHuman ? { to: "escalate", reason: "the agent asked a human" } : null;
}

/** analyst → escalate | pm */
export function routeAfterAnalyst(state: RouterState): Route {
  return escalation(state) ?? { to: "pm", reason: "requirements ready" };
}

/** pm → escalate | architect | dev */
export function routeAfterPm(state: RouterState): Route {
  return (
    escalation(state) ??
    (state.needsArchitecture
      ? { to: "architect", reason: "architecture needed" }
      : { to: "dev", reason: "no architecture needed" })
  );
}

/** architect → escalate | dev */
export function routeAfterArchitect(state: RouterState): Route {
  return escalation(state) ?? { to: "dev", reason: "decisions recorded" };
}

/** dev → escalate | tea */
export function routeAfterDev(state: RouterState): Route {
  return escalation(state) ?? { to: "tea", reason: "change ready for the gate" };
}

/** tea → escalate | dev (fix attempt) | END. `fixAttempts` counts gate blocks, so `maxFixAttempts` returns to dev at most. */
export function routeAfterTea(state: RouterState, maxFixAttempts: number): Route {
  const escalated = escalation(state);
  if (escalated) return escalated;
  if (!state.gateBlocked) return { to: END_ROUTE, reason: `gate passed (verdict ${state.verdict ?? "none"})` };
  const why = blockReason(state);
  if (state.fixAttempts <= maxFixAttempts) {
    return { to: "dev", reason: `${why}; fix attempt ${state.fixAttempts}/${maxFixAttempts}` };
  }
  return { to: END_ROUTE, reason: `${why}; no fix attempts left (${maxFixAttempts})` };
}

/** escalate → the agent that asked. */
export function routeAfterEscalate(state: RouterState): Route {
  return { to: state.askedBy ?? "analyst", reason: "answer delivered" };
}

function blockReason(state: RouterState): string {
  const failed = state.lastGates.filter((g) => g.required && !g.passed).map((g) => g.name);
  if (failed.length) return `gate failed: ${failed.join(", ")}`;
  return `tea verdict ${state.verdict ?? "FAIL"}`;
}

import { judgedVerdict } from "../../events/judgement-words.js";
import type { PipelineStateType } from "../../state/pipeline.js";

type GateRun = PipelineStateType["gateHistory"][number];

/**
 * A thread's gate outcome in a few words: the last attempt's verdict per gate, with what changed since the baseline
 * ("2 fixed, 1 regressed, 0 still failing"); "–" for a thread that ran no gate.
 */
export function gateOutcome(history: readonly GateRun[]): string {
  if (!history.length) return "–";
  const last = Math.max(...history.map((g) => g.attempt));
  return history
    .filter((g) => g.attempt === last)
    .map((g) => `${g.name}: ${judgedVerdict(g)}${changes(g)}`)
    .join("; ");
}

function changes(g: GateRun): string {
  const parts = [
    g.fixed?.length ? `${g.fixed.length} fixed` : "",
    g.regressions?.length ? `${g.regressions.length} regressed` : "",
    g.preExisting?.length ? `${g.preExisting.length} still failing` : "",
    g.newFailures?.length ? `${g.newFailures.length} new failing` : "",
  ].filter(Boolean);
  return parts.length ? ` (${parts.join(", ")})` : "";
}

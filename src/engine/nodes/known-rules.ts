import type { GateConfig } from "../../config/schema.js";
import { knownFailureMatcher, type KnownFailureRule } from "../../gates/known-failures.js";
import { DEFAULT_CODER } from "../../roles/catalog.js";
import type { FailureRuling } from "../../state/types.js";
import type { EngineDeps } from "../deps.js";

/** Where a known failure of this thread was declared, for the words "known failure, declared in …". */
export const DECLARED = {
  config: "yolo.config.ts (knownFailures)",
  gate: (gate: string) => `yolo.config.ts (gate ${gate}, knownFailures)`,
  flag: "--known-failure",
  accepted: (by: string, claimedBy: string) => `a human's approval at ${by} (${claimedBy} said it is not part of the task)`,
} as const;

/**
 * The known failures of one gate for this thread, as a matcher: the config's top-level and the gate's own
 * `knownFailures`, the thread's `--known-failure` patterns, and the tests a human accepted (exact ids). Only people
 * declare them: nothing here comes from a model.
 */
export function knownFor(
  gate: Pick<GateConfig, "name"> & { knownFailures?: string[] },
  deps: Pick<EngineDeps, "config">,
  flags: readonly string[],
  rulings: readonly FailureRuling[],
): (id: string) => string | null {
  const rules: KnownFailureRule[] = [
    ...(gate.knownFailures ?? []).map((pattern) => ({ pattern, declaredIn: DECLARED.gate(gate.name) })),
    ...(deps.config.knownFailures ?? []).map((pattern) => ({ pattern, declaredIn: DECLARED.config })),
    ...flags.map((pattern) => ({ pattern, declaredIn: DECLARED.flag })),
  ];
  const byPattern = knownFailureMatcher(rules);
  const accepted = new Map(rulings.filter((r) => r.accepted && r.gate === gate.name).map((r) => [r.id, DECLARED.accepted(r.by, r.claimedBy ?? DEFAULT_CODER)]));
  return (id) => accepted.get(id) ?? byPattern(id);
}

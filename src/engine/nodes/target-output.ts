import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { GateResult } from "../../events/schema.js";
import type { BaselineRecord } from "../../gates/baseline-record.js";
import { gateLogName, type GateRun } from "../../gates/run-gates.js";
import { targetOutputs } from "../../gates/test-output.js";
import { scrubText } from "../../secrets/scrub.js";

/**
 * The baseline's whole output for each gate that had failing tests there (its log in the thread's `gates/` folder),
 * so a target's failure then can be shown beside its failure now; a gate whose log is gone is left out.
 */
export async function baselineOutputs(record: BaselineRecord | null, logDir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const gate of record?.gates ?? []) {
    if (!gate.tests?.some((t) => t.status === "failed")) continue;
    const text = await readFile(join(logDir, gateLogName(gate.name, "baseline")), "utf8").catch(() => null);
    if (text !== null) out.set(gate.name, scrubText(text));
  }
  return out;
}

/** A judged result with its still-failing targets' own output (now and at the baseline), when there are targets that block. */
export function withTargetOutput(result: GateResult, run: GateRun, baseline: string | null): GateResult {
  if (!result.preExisting?.length || result.preExistingAllowed) return result;
  const targets = targetOutputs(result.preExisting, run.outputs ?? [], baseline);
  return targets.length ? { ...result, targetOutput: targets } : result;
}

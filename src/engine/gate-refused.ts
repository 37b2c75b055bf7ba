import { promises as fs } from "node:fs";
import { join } from "node:path";
import { readRecord, writeRecord } from "../gates/baseline-record.js";
import { refuseEnvironmentFailures } from "../gates/environment-failure.js";
import type { GateResult } from "../events/schema.js";
import type { PipelineStateType } from "../state/pipeline.js";
import type { GateSummary } from "../state/types.js";
import { threadArtifactsPath } from "../store/state-dir.js";

/**
 * The gate run that ended a leg because its environment broke it. That leg throws before any checkpoint holds the
 * run (the thread resumes at the gate), so without this record `show`, `report` and the web view would say no gate
 * ran. yolo writes it in the thread's artifacts folder, which the agents' sandbox cannot write; a later run of the
 * gates that gets past the check removes it.
 */
export function refusedGatesFile(stateDir: string, threadId: string): string {
  return join(threadArtifactsPath(stateDir, threadId), "gate-refused.jsonl");
}

/**
 * `refuseEnvironmentFailures`, keeping the refused run first. A record that cannot be written (a full disk) does not
 * hide the refusal: the error that ends the run is still thrown.
 */
export async function refuseRecorded(
  file: string,
  results: readonly GateResult[],
  coder: string | null,
  spared: (r: GateResult) => boolean = () => false,
): Promise<void> {
  try {
    refuseEnvironmentFailures(results, coder, spared);
  } catch (error) {
    await writeRecord(
      file,
      results.map(({ tail: _tail, ...summary }) => summary),
    ).catch(() => undefined);
    throw error;
  }
  await fs.rm(file, { force: true });
}

/** The gate runs a reader shows: the checkpointed ones, then the run the environment refused after them, if any. */
export async function withRefusedGates<T extends Pick<PipelineStateType, "gateHistory">>(values: T, stateDir: string, threadId: string): Promise<T> {
  const refused = await readRecord<GateSummary[]>(refusedGatesFile(stateDir, threadId));
  if (!Array.isArray(refused) || !refused.length) return values;
  return { ...values, gateHistory: [...values.gateHistory, ...refused] };
}

import type { PipelineStateType } from "../state/pipeline.js";
import { ROLE_CATALOG } from "./catalog.js";
import type { OutputSection } from "./types.js";

/**
 * What every role produced in a thread, as `yolo show` and the report display it: each built-in record's `display`,
 * in the catalog's order; `judgement` holds those of roles that judge the gates, which read best after the gate results.
 */
export function outputSections(state: PipelineStateType): { work: OutputSection[]; judgement: OutputSection[] } {
  const of = (judges: boolean) => ROLE_CATALOG.filter((r) => (r.judgesGates === true) === judges).flatMap((r) => r.display(state));
  return { work: of(false), judgement: of(true) };
}

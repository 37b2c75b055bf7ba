import { cachedValidation, storeValidation, type ValidationCache } from "../config/load-cache.js";
import type { ResolvedConfig } from "../config/schema.js";
import { workflowInputs } from "../config/workflow-inputs.js";

export { SHIPPED_AGENTS_DIR, workflowInputs } from "../config/workflow-inputs.js";

/**
 * Validates the agents and the workflow exactly as a run does (loadPipelineAgents: every problem reported at once),
 * unless this build validated the very same inputs before: the workflow's part of the config and every file of
 * both agents folders, byte for byte. A command that only reads the workflow (`yolo graph`) then loads neither the
 * agents' YAML parser nor zod.
 */
export async function checkWorkflow(config: ResolvedConfig, cache: ValidationCache | null): Promise<void> {
  const inputs = cache ? workflowInputs(config) : null;
  if (cache && inputs && cachedValidation(cache, "workflow", inputs) === true) return;
  (await import("./prepare.js")).loadPipelineAgents(config);
  if (cache && inputs) storeValidation(cache, "workflow", inputs, true);
}

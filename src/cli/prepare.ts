import type { AgentDefinition } from "../agents/types.js";
import type { ResolvedConfig } from "../config/schema.js";
import { loadWorkflowAgents } from "../agents/workflow-agents.js";

// The config half lives in load-config.ts, which read-only commands import without the agents' loader.
export { loadResolvedConfig, projectRoot, type ConfigFlags } from "./load-config.js";

/** Loads the agents and validates the workflow; every problem is reported at once (exit 2). */
export function loadPipelineAgents(config: ResolvedConfig): Map<string, AgentDefinition> {
  return loadWorkflowAgents(config);
}

import { loadAgents } from "../agents/loader.js";
import type { AgentDefinition } from "../agents/types.js";
import type { ResolvedConfig } from "../config/schema.js";
import { ConfigError } from "../errors.js";
import { validateWorkflow } from "../workflow/validate.js";

/**
 * Loads the agents (shipped defaults, then the project's) and validates the workflow against them. Every
 * problem — in any agent file or anywhere in the workflow — is reported at once, before anything runs.
 */
export function loadWorkflowAgents(config: ResolvedConfig): Map<string, AgentDefinition> {
  const loaded = loadAgents({ projectAgentsDir: config.agentsDir, cwd: config.root });
  const problems = [
    ...loaded.errors,
    ...validateWorkflow(config.workflow, {
      agentIds: new Set(loaded.agents.keys()),
      gateNames: config.gates ? config.gates.map((g) => g.name) : null,
      approve: config.approve,
    }).map((p) => (config.configFile ? `${config.configFile}: ${p}` : p)),
  ];
  if (problems.length) {
    throw new ConfigError(`Nothing was run: ${problems.length === 1 ? "1 problem" : `${problems.length} problems`} in the agent files or the workflow. Fix these and try again:`, problems);
  }
  return loaded.agents;
}

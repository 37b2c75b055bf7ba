import { loadAgents } from "./loader.js";
import type { AgentDefinition } from "./types.js";
import type { ResolvedConfig } from "../config/schema.js";
import { ConfigError } from "../errors.js";
import { validateWorkflow } from "../workflow/validate.js";

/**
 * Loads the agents (shipped defaults, then the project's) and validates the workflow against them. Every
 * problem — in any agent file or anywhere in the workflow — is reported at once, before anything runs.
 */
export function loadWorkflowAgents(config: ResolvedConfig): Map<string, AgentDefinition> {
  const loaded = loadAgents({ projectAgentsDir: config.agentsDir, cwd: config.root, detect: config.agentsDirConfigured !== true });
  const problems = [
    ...loaded.errors,
    ...validateWorkflow(config.workflow, {
      agentIds: new Set(loaded.agents.keys()),
      gateNames: config.gates ? config.gates.map((g) => g.name) : null,
      approve: config.approve,
      agentCapabilities: new Map([...loaded.agents].map(([id, a]) => [id, a.capabilities ?? []])),
    })
      .concat(flagClashes(config, loaded.agents))
      .map((p) => (config.configFile ? `${config.configFile}: ${p}` : p)),
  ];
  if (problems.length) {
    throw new ConfigError(
      `Nothing was run: ${problems.length === 1 ? "1 problem" : `${problems.length} problems`} in the agent files or the workflow.${loaded.note ? ` ${loaded.note}` : ""} Fix these and try again:`,
      problems,
    );
  }
  return loaded.agents;
}

/** A flag a node `sets` that is also a handoff field its agent's file declares: both would be one handoff argument. */
function flagClashes(config: ResolvedConfig, agents: Map<string, AgentDefinition>): string[] {
  const problems: string[] = [];
  for (const [id, spec] of Object.entries(config.workflow.nodes)) {
    if (spec.kind !== "agent") continue;
    const fields = agents.get(spec.agent ?? id)?.handoff ?? {};
    (spec.sets ?? []).forEach((flag, i) => {
      if (Object.hasOwn(fields, flag))
        problems.push(`workflow.nodes.${id}.sets[${i}]: "${flag}" is also a handoff field of agent "${spec.agent ?? id}"; rename the flag or the field`);
    });
  }
  return problems;
}

import { realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadConfigFile } from "../config/load.js";
import { resolveConfig } from "../config/resolve.js";
import { createEngineDeps } from "../engine/create-deps.js";
import { buildWorkflowGraph } from "../engine/graph.js";
import { loadWorkflowAgents } from "../agents/workflow-agents.js";
import { ConfigError } from "../errors.js";
import { ensureStateDir } from "../store/state-dir.js";
import { trustedConfig } from "../config/trust/config-trust.js";

/** Where a served project comes from: `YOLO_PROJECT` (a path), else the server's working directory. */
export interface ServerGraphOptions {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}

/** The project root a server serves, resolved through symlinks like the CLI's. */
export function servedProjectRoot({ env, cwd }: ServerGraphOptions): string {
  const dir = resolve(cwd, env.YOLO_PROJECT?.trim() || ".");
  try {
    return realpathSync(dir);
  } catch {
    throw new ConfigError(`The project to serve, ${dir}, does not exist. Set YOLO_PROJECT to the checkout of the repository the agents work on.`);
  }
}

/**
 * The project's workflow compiled for LangGraph's server (`langgraph.json`): its yolo.config.ts, agents and gates,
 * the model from the environment (the config as the bundle the user trusted: a changed one is refused). Compiled WITHOUT a checkpointer: the server attaches its own. The step limit
 * (`limits.maxSteps`) is bound as the default `recursionLimit`, since the server's default of 25 is too low for
 * fix loops; a run's own `config.recursion_limit` still wins. Every problem in the config, the agents or the
 * model settings throws here, so the server refuses to register the graph instead of failing on the first run.
 */
export async function createServerGraph(options: ServerGraphOptions) {
  const root = servedProjectRoot(options);
  // Like every command, the server runs only the config bundle the user trusted, never the work tree's file: the
  // agents it serves write that tree, and the next start of the server would run what they wrote (config-trust.ts).
  const trusted = await trustedConfig(root, options.env);
  const { file, config: fileConfig } = await loadConfigFile(root, { bundle: trusted.bundle });
  const config = resolveConfig({ root, fileConfig, file, mcpJson: trusted.mcpJson, env: options.env });
  const agents = loadWorkflowAgents(config);
  ensureStateDir(root);
  const deps = createEngineDeps({ config, agents, logFile: join(config.stateDir, "logs", "server.log"), env: { ...options.env } });
  if (config.branch) {
    // Branch commits need a per-thread git set-up that the CLI does before a run starts; the server has no such hook.
    deps.logger.warn({ root }, "branch: true is ignored under the LangGraph server; commit the agents' changes yourself");
  }
  return buildWorkflowGraph(deps).withConfig({ recursionLimit: config.limits.maxSteps });
}

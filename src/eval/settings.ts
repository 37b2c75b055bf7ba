import { join } from "node:path";
import type { ResolvedConfig } from "../config/schema.js";
import { chooseSandbox } from "../engine/run/facts.js";
import type { SuiteSettings } from "./suite.js";

/** Where an eval keeps its task files and runs: `<artifacts>/eval/`. */
export function evalDir(config: ResolvedConfig): string {
  return join(config.stateDir, "eval");
}

/**
 * How the eval runs the project's gates: the same environment allow-list, sandbox and output cap as a run's gates,
 * since judging runs code a model wrote. Notices (an unsandboxed machine) are returned for the caller to say.
 */
export function suiteSettings(config: ResolvedConfig, env: NodeJS.ProcessEnv, signal?: AbortSignal): { settings: SuiteSettings; notices: string[] } {
  const sandbox = chooseSandbox(config, env);
  return {
    settings: {
      env,
      secretEnvNames: [config.model.apiKeyEnv],
      commands: { envAllow: config.env.strict ? config.env.allow : null, sandbox: sandbox.sandbox },
      capBytes: config.limits.outputCapBytes,
      signal,
    },
    notices: sandbox.notices,
  };
}

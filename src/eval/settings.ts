import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ResolvedConfig } from "../config/schema.js";
import { chooseSandbox } from "../engine/run/facts.js";
import type { Sandbox } from "../exec/sandbox.js";
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
  const choice = chooseSandbox(config, env);
  const sandbox = withProjectDependencies(choice.sandbox, config.root);
  return {
    settings: {
      env,
      secretEnvNames: [config.model.apiKeyEnv],
      commands: { envAllow: config.env.strict ? config.env.allow : null, sandbox },
      capBytes: config.limits.outputCapBytes,
      signal,
    },
    notices: choice.notices,
  };
}

/**
 * The sandbox with the project's installed dependencies shown read-only: the build's scratch checkouts and the judged
 * trees live under the project and reach its `node_modules` through a link (worktree.ts), and the sandbox shows the
 * home folder and /tmp empty, so a project there would otherwise see a dangling link (every test importing a
 * dependency failing at both ends, and `node --test` with no paths stopping on it).
 */
function withProjectDependencies(sandbox: Sandbox, root: string): Sandbox {
  const deps = join(root, "node_modules");
  if (sandbox.kind !== "bwrap" || !existsSync(deps)) return sandbox;
  return { ...sandbox, readOnly: [...(sandbox.readOnly ?? []), deps] };
}

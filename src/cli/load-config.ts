import type { ResolvedConfig } from "../config/schema.js";
import { type ConfigFlags, loadProjectConfig, withTestCommand } from "../config/load-project.js";
import { ConfigError } from "../errors.js";
import { cliFlagName } from "./wording/flag-names.js";

export { projectRoot } from "../config/project-root.js";
export { EVAL_CONFIG_VAR, evalConfigPin, validationCache, type ConfigFlags } from "../config/load-project.js";
export { userCacheDir } from "../config/user-cache-dir.js";

/** Loads and resolves the configuration once (defaults < yolo.config.ts < environment < flags), in the CLI's flag names. */
export async function loadResolvedConfig(cwd: string, flags: ConfigFlags = {}): Promise<ResolvedConfig> {
  const resolved = await loadProjectConfig(cwd, flags, cliFlagName);
  return flags.testCmd === undefined ? resolved : withTestCommand(resolved, testCommandGiven(flags.testCmd));
}

/** `--test-cmd <command>` as given, refused when empty (exit 2) before it replaces the run's gates. */
export function testCommandGiven(command: string): string {
  if (!command.trim()) throw new ConfigError('--test-cmd is empty: give the command that runs the tests, e.g. --test-cmd "npm test".');
  return command;
}

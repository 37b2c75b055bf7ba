import type { Sandbox } from "./sandbox.js";

/** What contains every command a run starts, the model's and the gates' alike: the environment allow-list and the sandbox. */
export interface ExecSettings {
  /** Variable names (with `*`) commands' environment is limited to, under CI; null: the scrubbed environment. */
  envAllow: readonly string[] | null;
  sandbox: Sandbox;
  /** yolo's configured agents folder and instruction file names: protected like the fixed config names (exec-files.ts). */
  config?: ConfigProtection;
}

/**
 * What the run's config adds to the files a command or write tool may not change: instruction file names (matched
 * anywhere, as `AGENTS.md` is) and the project's agents folder (project-relative, from the root).
 */
export interface ConfigProtection {
  names: readonly string[];
  dirs: readonly string[];
}

import type { Sandbox } from "./sandbox.js";

/** What contains every command a run starts, the model's and the gates' alike: the environment allow-list and the sandbox. */
export interface ExecSettings {
  /** Variable names (with `*`) commands' environment is limited to, under CI; null: the scrubbed environment. */
  envAllow: readonly string[] | null;
  sandbox: Sandbox;
}

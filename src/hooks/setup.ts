import { basename } from "node:path";
import type { NoticeFact } from "../events/facts.js";
import type { ResolvedConfig } from "../config/schema.js";
import { HookRunner, label, registerHooks } from "./hooks.js";
import { HOOK_EVENTS } from "../config/hook-events.js";
import type { HooksConfig } from "../config/hooks-schema.js";
import { hookSetHash, isTrusted, trustStoreFile } from "./trust.js";
import type { Sandbox } from "../exec/sandbox.js";
import type { ConfigProtection } from "../exec/settings.js";

/** Where the repository's hooks stand with this user. */
export type ProjectHookTrust = "none" | "trusted" | "trusted-by-env" | "untrusted";

/** The repository's hook set and whether the user trusted it: recorded consent for its hash, or YOLO_TRUST_PROJECT_HOOKS. */
export function projectHookTrust(config: ResolvedConfig, env: Readonly<Record<string, string | undefined>>): { trust: ProjectHookTrust; hash: string | null } {
  const project = config.hooks.project;
  if (!project || hookCommands(project).length === 0) return { trust: "none", hash: null };
  const hash = hookSetHash(project, config.root);
  if (isTrusted(trustStoreFile(env), config.root, hash)) return { trust: "trusted", hash };
  return { trust: config.hooks.trustProject ? "trusted-by-env" : "untrusted", hash };
}

/**
 * The hooks a run uses: always the user's own; the repository's only when the user trusted exactly this set.
 * An untrusted set is named in a notice (a `warning` at start) with the command that trusts it, and not run. `walls`:
 * the run's sandbox and protected config, which hooks not on the host run in (without them such a hook is refused),
 * asked for when the first such hook runs.
 */
export function setUpHooks(
  config: ResolvedConfig,
  env: NodeJS.ProcessEnv,
  walls?: () => { sandbox: Sandbox; config: ConfigProtection },
): { hooks: HookRunner | undefined; notices: NoticeFact[] } {
  const { trust } = projectHookTrust(config, env);
  const registered = registerHooks(config.hooks.user ?? undefined, "user", config.root);
  const notices: NoticeFact[] = [];
  if (trust === "trusted" || trust === "trusted-by-env") registered.push(...registerHooks(config.hooks.project ?? undefined, "project", config.root));
  else if (trust === "untrusted" && config.hooks.project) {
    const listed = hookCommands(config.hooks.project)
      .map(([event, command]) => `${event} \`${label(command)}\``)
      .join(", ");
    notices.push({ kind: "hooks-untrusted", configFile: basename(config.configFile ?? "yolo.config.ts"), hooks: listed });
  }
  if (registered.length === 0) return { hooks: undefined, notices };
  const envAllow = config.env.strict ? config.env.allow : null;
  // Asked for only when a hook runs in the sandbox (a resume's start need not choose the sandbox for none).
  const hookWalls = walls ? () => ({ ...walls(), secretEnvNames: [config.model.apiKeyEnv], envAllow }) : undefined;
  return { hooks: new HookRunner(registered, { root: config.root, env, ...(hookWalls ? { walls: hookWalls } : {}) }), notices };
}

/** Every (event, command) of a hook set, in config order. */
export function hookCommands(hooks: HooksConfig): [string, string][] {
  return HOOK_EVENTS.flatMap((event) => (hooks[event] ?? []).flatMap((g) => g.hooks.map((h): [string, string] => [event, h.command])));
}

/**
 * The untrusted-hooks notice in the engine's neutral words (the CLI names its trust command instead). What to do
 * comes first: the live view cuts a long notice at its end, the plain view in its middle.
 */
export function untrustedHooksNotice(fact: Extract<NoticeFact, { kind: "hooks-untrusted" }>): string {
  return (
    `${fact.configFile} hooks are not trusted, so they do not run: read them, then trust them ` +
    `(a pipeline on your own repository: YOLO_TRUST_PROJECT_HOOKS=1). They run in the agents' sandbox, or on your machine with your environment where they say \`host: true\`: ${fact.hooks}.`
  );
}

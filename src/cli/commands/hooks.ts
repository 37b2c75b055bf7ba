import { ConfigError } from "../../errors.js";
import { label } from "../../hooks/hooks.js";
import { hookCommands, projectHookTrust } from "../../hooks/setup.js";
import { trustHooks, trustStoreFile, untrustHooks } from "../../hooks/trust.js";
import { loadResolvedConfig } from "../load-config.js";

const TRUST_WORDS = {
  none: "",
  trusted: "trusted",
  "trusted-by-env": "trusted by YOLO_TRUST_PROJECT_HOOKS",
  untrusted: "NOT trusted: they do not run (yolo hooks trust)",
} as const;

/**
 * `yolo hooks [list | trust | untrust]`: shows the user's and the repository's hooks; `trust` records the
 * user's consent to the repository's exact hook set (its hash, in the user's state folder), `untrust` withdraws it.
 */
export async function hooksCommand(input: { cwd: string; action: string }): Promise<number> {
  const config = await loadResolvedConfig(input.cwd);
  const { trust, hash } = projectHookTrust(config, process.env);
  const store = trustStoreFile(process.env);
  const project = config.hooks.project ? hookCommands(config.hooks.project) : [];
  const out = (line: string) => process.stdout.write(`${line}\n`);
  switch (input.action) {
    case "list": {
      const user = config.hooks.user ? hookCommands(config.hooks.user) : [];
      out(`User hooks (${config.userConfigFile ?? "no user config"}):${user.length ? "" : " none"}`);
      for (const [event, command] of user) out(`  ${event.padEnd(11)} ${label(command)}`);
      out(`Repository hooks (${config.configFile ?? "no yolo.config.ts"}):${project.length ? ` ${TRUST_WORDS[trust]}` : " none"}`);
      for (const [event, command] of project) out(`  ${event.padEnd(11)} ${label(command)}`);
      return 0;
    }
    case "trust": {
      if (!hash) throw new ConfigError(`${config.configFile ?? "This project"} defines no hooks: there is nothing to trust.`);
      trustHooks(store, config.root, hash);
      out(`Trusted the ${project.length === 1 ? "hook" : `${project.length} hooks`} of ${config.configFile} for ${config.root}:`);
      for (const [event, command] of project) out(`  ${event.padEnd(11)} ${label(command)}`);
      out(`Recorded in ${store}. A change to these hooks, or to a project file they run, needs \`yolo hooks trust\` again.`);
      return 0;
    }
    case "untrust": {
      const removed = untrustHooks(store, config.root);
      out(removed ? `The repository's hooks of ${config.root} are no longer trusted.` : `Nothing was trusted for ${config.root}.`);
      return 0;
    }
    default:
      throw new ConfigError(`Unknown hooks action "${input.action}": use list, trust or untrust.`);
  }
}

import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve, sep } from "node:path";
import { ConfigError } from "../errors.js";
import { userStateDir } from "./trust/config-trust-store.js";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Refuses a project root that is the user's home folder or holds (is, or is above) their yolo config folder or
 * yolo's trust store: there the agents' commands and file tools could write the user config (which runs outside the
 * sandbox and decides the sandbox), the trust records, and home dotfiles such as ~/.gitconfig, all as project files.
 * A ConfigError (exit 2) that says what, why and what to do.
 */
export function refuseUserFolders(root: string, env: Env = process.env): void {
  const home = env.HOME?.trim() || homedir();
  const held: [string, string][] = [
    ["your home folder", home],
    ["your yolo config folder", userConfigFolder(env, home)],
    ["yolo's trust store", userStateDir(env)],
  ];
  const project = real(root);
  for (const [what, dir] of held) {
    const at = real(dir);
    if (at !== project && !at.startsWith(project.endsWith(sep) ? project : `${project}${sep}`)) continue;
    const where = at === project ? `it is ${what}` : `it holds ${what} (${at})`;
    throw new ConfigError(
      `yolo will not use ${project} as a project: ${where}. The agents' commands and file tools write inside the project, and there they could rewrite your user config, the trust store and your home's dotfiles (~/.gitconfig), which run outside the sandbox. Run yolo inside a project folder (a git repository), e.g. \`cd ~/code/my-app\` or \`yolo -C ~/code/my-app …\`.`,
    );
  }
}

// The folder of the user config: YOLO_USER_CONFIG's, else $XDG_CONFIG_HOME/yolo (default ~/.config/yolo).
function userConfigFolder(env: Env, home: string): string {
  const explicit = env.YOLO_USER_CONFIG?.trim();
  if (explicit) return dirname(resolve(explicit));
  return join(env.XDG_CONFIG_HOME?.trim() || join(home, ".config"), "yolo");
}

// The real path of `path`, or of its deepest existing ancestor with the rest appended (the folder may not exist yet).
function real(path: string): string {
  const abs = resolve(path);
  try {
    return realpathSync(abs);
  } catch {
    const parent = dirname(abs);
    return parent === abs ? abs : join(real(parent), abs.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
  }
}

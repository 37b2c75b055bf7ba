import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "../errors.js";

/** Config file names, in the order they are looked for. */
export const CONFIG_FILE_NAMES = ["yolo.config.ts", "yolo.config.mts", "yolo.config.js", "yolo.config.mjs"] as const;

/** Finds the first config file in `root`, or null. */
export function findConfigFile(root: string): string | null {
  for (const name of CONFIG_FILE_NAMES) {
    const file = join(root, name);
    if (existsSync(file)) return file;
  }
  return null;
}

/** User-level config file names, looked for in `$XDG_CONFIG_HOME/yolo/` (default `~/.config/yolo/`). */
export const USER_CONFIG_FILE_NAMES = ["config.ts", "config.mts", "config.js", "config.mjs", "config.json"] as const;

/**
 * The user-level config file: `YOLO_USER_CONFIG` when set (empty: none), else the first of
 * `$XDG_CONFIG_HOME/yolo/config.{ts,mts,js,mjs,json}` (XDG_CONFIG_HOME defaults to `~/.config`), else null.
 */
export function findUserConfigFile(env: Readonly<Record<string, string | undefined>>): string | null {
  const explicit = env.YOLO_USER_CONFIG;
  if (explicit !== undefined) {
    if (explicit.trim() === "") return null;
    if (!existsSync(explicit)) throw new ConfigError(`YOLO_USER_CONFIG names ${explicit}, which does not exist; fix the path or unset it.`);
    return explicit;
  }
  const base = env.XDG_CONFIG_HOME?.trim() || join(env.HOME?.trim() || homedir(), ".config");
  for (const name of USER_CONFIG_FILE_NAMES) {
    const file = join(base, "yolo", name);
    if (existsSync(file)) return file;
  }
  return null;
}

import { homedir } from "node:os";
import { join } from "node:path";

/**
 * Where transpiled and validated config (and the light CLI's code cache) is kept between commands: the user's cache
 * directory, outside every repository (`$XDG_CACHE_HOME/yolo`, by default `~/.cache/yolo`), so a cloned repository
 * cannot bring a cache of its own.
 */
export function userCacheDir(env: Readonly<Record<string, string | undefined>>): string {
  return join(env.XDG_CACHE_HOME?.trim() || join(env.HOME?.trim() || homedir(), ".cache"), "yolo");
}

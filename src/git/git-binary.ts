import { accessSync, constants, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";

const found = new Map<string, string | null>();

/**
 * The git executable a spawn of `git` with this PATH would run, as an absolute path (the spawner helper starts only
 * absolute files); null when only a relative PATH entry has one, or none does (then git is spawned directly, as
 * before). Remembered per PATH: a git removed since is refused by the helper, and then spawned directly.
 */
export function gitOnPath(path: string | undefined): string | null {
  const key = path ?? "";
  let file = found.get(key);
  if (file === undefined) {
    file = search(key);
    found.set(key, file);
  }
  return file;
}

function search(path: string): string | null {
  for (const dir of path.split(":")) {
    // The first entry that holds git decides, as execvp's search does: a relative one is left to a direct spawn.
    const candidate = join(dir || ".", "git");
    if (!executable(candidate)) continue;
    return isAbsolute(candidate) ? candidate : null;
  }
  return null;
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

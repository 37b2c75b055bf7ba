import { existsSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ConfigError } from "../errors.js";
import { findConfigFile } from "./find.js";
import { refuseUserFolders } from "./user-folders.js";

/** Where yolo works, found from the folder it was started in. */
export interface ProjectLocation {
  /** The project: the repository's top level, or a nearer folder with its own yolo.config.ts, or (outside git) the start folder. */
  root: string;
  /** The folder yolo was started in (or -C), resolved through symlinks; inside `root`. */
  startDir: string;
  /** Set when a yolo.config.ts nearer than the repository's top level made its folder the project: that top level. */
  gitRoot: string | null;
}

/**
 * The project root from any folder of a repository, as git and other coding agents find it: the nearest folder
 * upwards holding `.git` (a directory, or a file in a worktree or submodule), unless a folder on the way holds a
 * yolo.config.ts (a monorepo package configured on its own). Outside git, the start folder, as always.
 * Reads only the file system: no git process, so light commands stay light.
 */
export function findProject(cwd: string): ProjectLocation {
  const found = locate(cwd);
  // Every command works in a project, and most write into it (.yolo/, the agents' files): never the home folder.
  refuseUserFolders(found.root);
  return found;
}

function locate(cwd: string): ProjectLocation {
  const startDir = realStart(cwd);
  let configDir: string | null = null;
  for (let dir = startDir; ; dir = dirname(dir)) {
    if (configDir === null && findConfigFile(dir)) configDir = dir;
    if (existsSync(join(dir, ".git"))) {
      if (configDir === null || configDir === dir) return { root: dir, startDir, gitRoot: null };
      return { root: configDir, startDir, gitRoot: dir };
    }
    if (dirname(dir) === dir) return { root: startDir, startDir, gitRoot: null };
  }
}

/** The project root for the folder yolo was started in (see findProject). */
export function projectRoot(cwd: string): string {
  return findProject(cwd).root;
}

function realStart(cwd: string): string {
  try {
    return realpathSync(resolve(cwd));
  } catch {
    throw new ConfigError(`The directory ${cwd} does not exist.`);
  }
}

import { execFile } from "node:child_process";
import type { Dirent } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { isIgnored, parseGitignore, type IgnoreRules } from "../fs/gitignore.js";
import { isProtectedName } from "./paths.js";
import { isSensitiveName, sensitiveReason } from "../secrets/sensitive.js";

/** Directories never listed or searched: yolo's state, git internals, credentials folders, and dependency trees. */
export function isSkippedDir(name: string): boolean {
  return isProtectedName(name) || isSensitiveName(name) || name === "node_modules";
}

/** How a walk went, filled in as it runs; `capped` tells the caller to say the listing is incomplete. */
export interface WalkStats {
  /** Files and folders looked at (git: paths listed). */
  visited: number;
  /** True when a limit (entries visited, time) stopped the walk early. */
  capped: boolean;
  /** `git` when `git ls-files` listed the files (so .gitignore and git's excludes applied), `fs` for a plain walk. */
  source: "git" | "fs" | null;
}

export interface WalkOptions {
  /** Stop after this many files and folders (default 200,000). */
  maxVisited?: number;
  /** Stop at this time (`Date.now()` ms); absent: no time limit. */
  deadline?: number;
  stats?: WalkStats;
}

const DEFAULT_MAX_VISITED = 200_000;
/** `git ls-files` output beyond this (about 400,000 average paths) falls back to the capped walk. */
const GIT_MAX_BUFFER = 32 * 1024 * 1024;
const GIT_TIMEOUT_MS = 20_000;
const MAX_GITIGNORE_BYTES = 256 * 1024;

/**
 * Yields project-relative (POSIX) paths of the files under `startRel`, honouring .gitignore: in a git repository
 * the files `git ls-files` reports (tracked and untracked, minus ignored and deleted), elsewhere a depth-first walk
 * in name order applying every .gitignore on the way down. yolo's state, .git, node_modules and credential files
 * are never yielded. Symlinked directories are not followed, so a link cannot lead out of the project or loop.
 */
export async function* walkFiles(root: string, startRel: string, opts: WalkOptions = {}): AsyncGenerator<string> {
  const stats = opts.stats ?? { visited: 0, capped: false, source: null };
  const start = path.join(root, startRel);
  const stat = await fs.stat(start);
  if (!stat.isDirectory()) {
    yield toPosix(startRel);
    return;
  }
  const listed = await gitFiles(root, toPosix(startRel));
  if (listed) {
    stats.source = "git";
    yield* realFolders(root, fromList(listed, opts, stats));
  } else {
    stats.source = "fs";
    yield* walkTree(root, startRel, opts, stats);
  }
}

// Git's list, in the same order as the tree walk (a folder's files before its subfolders), minus skipped paths.
function* fromList(files: string[], opts: WalkOptions, stats: WalkStats): Generator<string> {
  const max = opts.maxVisited ?? DEFAULT_MAX_VISITED;
  const kept = files
    .map((rel) => ({ rel, parts: rel.split("/") }))
    .filter(({ rel, parts }) => !parts.slice(0, -1).some(isSkippedDir) && sensitiveReason(rel) === null);
  kept.sort(treeOrder);
  for (const { rel } of kept) {
    if (++stats.visited > max || (opts.deadline !== undefined && (stats.visited & 255) === 0 && Date.now() > opts.deadline)) {
      stats.capped = true;
      return;
    }
    yield rel;
  }
}

/**
 * Drops paths whose folder is a symlink (or no folder at all): the index can still list `d/f` after `d` was
 * replaced by a link to somewhere outside the project, and reading that path would follow it. One lstat per folder.
 */
async function* realFolders(root: string, paths: Iterable<string>): AsyncGenerator<string> {
  const known = new Map<string, boolean>();
  const isRealDir = async (dir: string): Promise<boolean> => {
    if (dir === "") return true;
    const cached = known.get(dir);
    if (cached !== undefined) return cached;
    const slash = dir.lastIndexOf("/");
    let real = await isRealDir(slash === -1 ? "" : dir.slice(0, slash));
    if (real) {
      try {
        real = (await fs.lstat(path.join(root, dir))).isDirectory();
      } catch {
        real = false;
      }
    }
    known.set(dir, real);
    return real;
  };
  for (const rel of paths) {
    const slash = rel.lastIndexOf("/");
    if (await isRealDir(slash === -1 ? "" : rel.slice(0, slash))) yield rel;
  }
}

// The plain walk for folders outside git, with nested .gitignore files applied as git would.
async function* walkTree(root: string, startRel: string, opts: WalkOptions, stats: WalkStats): AsyncGenerator<string> {
  const max = opts.maxVisited ?? DEFAULT_MAX_VISITED;
  const startPosix = toPosix(startRel);
  const rootRules = await ignoreRulesOnTheWay(root, startPosix);
  const stack: Array<{ rel: string; rules: IgnoreRules[] }> = [{ rel: startPosix, rules: rootRules }];
  while (stack.length > 0) {
    const { rel: dirRel, rules: parentRules } = stack.pop() as { rel: string; rules: IgnoreRules[] };
    let entries: Dirent[];
    try {
      entries = await fs.readdir(path.join(root, dirRel), { withFileTypes: true });
    } catch {
      continue;
    }
    const own = entries.some((e) => e.name === ".gitignore" && e.isFile()) ? await readRules(root, dirRel) : null;
    const rules = own ? [...parentRules, own] : parentRules;
    entries.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const entry of entries) {
      if (++stats.visited > max || (opts.deadline !== undefined && (stats.visited & 255) === 0 && Date.now() > opts.deadline)) {
        stats.capped = true;
        return;
      }
      const rel = dirRel === "" ? entry.name : `${dirRel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!isSkippedDir(entry.name) && sensitiveReason(rel) === null && !isIgnored(rules, rel, true)) subdirs.push(rel);
      } else if (sensitiveReason(rel) === null && !isIgnored(rules, rel, false)) {
        yield rel;
      }
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push({ rel: subdirs[i], rules });
  }
}

// The .gitignore files of the folders above the start (a walk of `src/` still honours the root's .gitignore).
async function ignoreRulesOnTheWay(root: string, startRel: string): Promise<IgnoreRules[]> {
  const parts = startRel === "" ? [] : startRel.split("/");
  const out: IgnoreRules[] = [];
  for (let i = 0; i < parts.length; i++) {
    const rules = await readRules(root, parts.slice(0, i).join("/"));
    if (rules) out.push(rules);
  }
  return out;
}

async function readRules(root: string, dirRel: string): Promise<IgnoreRules | null> {
  const file = path.join(root, dirRel, ".gitignore");
  try {
    const stat = await fs.lstat(file);
    if (!stat.isFile()) return null;
    const handle = await fs.open(file, "r");
    try {
      const buf = Buffer.alloc(Math.min(stat.size, MAX_GITIGNORE_BYTES));
      await handle.read(buf, 0, buf.length, 0);
      return parseGitignore(buf.toString("utf8"), dirRel);
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}

/** Files git reports under `startRel` (tracked and untracked, not ignored, not deleted); null outside a git repository. */
async function gitFiles(root: string, startRel: string): Promise<string[] | null> {
  const spec = startRel === "" ? "." : startRel;
  const [present, deleted] = await Promise.all([
    git(root, ["ls-files", "--cached", "--others", "--exclude-standard", "-z", "--", spec]),
    git(root, ["ls-files", "--deleted", "-z", "--", spec]),
  ]);
  if (present === null || deleted === null) return null;
  const gone = new Set(deleted.split("\0"));
  // Both lists can name a file twice (a merge conflict's stages); once is enough.
  return [...new Set(present.split("\0"))].filter((f) => f !== "" && !gone.has(f));
}

function git(cwd: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile("git", ["-c", "core.quotePath=false", ...args], { cwd, maxBuffer: GIT_MAX_BUFFER, timeout: GIT_TIMEOUT_MS, encoding: "utf8" }, (error, stdout) =>
      resolve(error ? null : stdout),
    );
  });
}

// Depth-first name order, a folder's own files before its subfolders: the order of the plain walk.
function treeOrder({ parts: x }: { parts: string[] }, { parts: y }: { parts: string[] }): number {
  for (let i = 0; ; i++) {
    const xLast = i === x.length - 1;
    const yLast = i === y.length - 1;
    if (x[i] !== y[i] || xLast || yLast) {
      if (xLast !== yLast) return xLast ? -1 : 1;
      return x[i] < y[i] ? -1 : x[i] > y[i] ? 1 : 0;
    }
  }
}

function toPosix(rel: string): string {
  return path.sep === "/" ? rel : rel.split(path.sep).join("/");
}

import fs from "node:fs";
import path from "node:path";
import { configMatcher, execFileReason, execSegment } from "./exec-files.js";
import type { ConfigProtection } from "./settings.js";
import { normaliseName, sensitiveReason, sensitiveSegment } from "../secrets/sensitive.js";

/** What the sandbox must not let a command change or read, found by walking the project before each command. */
export interface ProtectedPaths {
  /** Absolute paths bound read-only: files that run code outside yolo, and git dirs wherever they live. */
  readOnly: string[];
  /** Absolute secret files (`.env`, keys, `.npmrc`, …) shown empty inside the sandbox. */
  maskedFiles: string[];
  /** Absolute secret folders (`.ssh`, `.aws`, `.gnupg`) shown empty inside the sandbox. */
  maskedDirs: string[];
  /** Project-relative exec-file paths that exist now (what a later walk compares with). */
  execRels: Set<string>;
  /** False when the walk stopped at its limits: then nothing found later is treated as new, and no command runs. */
  complete: boolean;
  /** Which limit stopped an incomplete walk, in words for the model and the user. */
  incomplete?: string;
}

/** How much of the project is walked (per command; node_modules, .git and .yolo are not entered). */
export interface WalkLimits {
  /** Entries walked at most; past it the walk is incomplete and the command does not run (fail closed). */
  maxEntries: number;
  /** Folder depth walked at most (the walk follows no link, so this only bounds a pathological tree). */
  maxDepth: number;
}

export const DEFAULT_WALK_LIMITS: WalkLimits = { maxEntries: 200_000, maxDepth: 48 };
const SKIP = new Set(["node_modules", ".yolo"]);

/**
 * Walks `root` for exec files and secret files; a `.git` file (worktree, submodule) adds the git dirs it points at.
 * The root's own `.git` is protected before the walk starts, so no limit can leave it writable. `config`: the run's
 * agents folder and instruction names, protected like yolo.config.*.
 */
export function findProtectedPaths(root: string, limits: WalkLimits = DEFAULT_WALK_LIMITS, config?: ConfigProtection): ProtectedPaths {
  const out: ProtectedPaths = { readOnly: [], maskedFiles: [], maskedDirs: [], execRels: new Set(), complete: true };
  let seen = 0;
  const configured = configMatcher(config);
  const stop = (why: string) => {
    out.complete = false;
    out.incomplete ??= why;
  };
  // Every entry walked counts toward maxEntries; past it the walk stops and says it is incomplete.
  const overCap = () => {
    if (++seen <= limits.maxEntries) return false;
    stop(`the project has more than ${limits.maxEntries} files and folders outside node_modules`);
    return true;
  };
  const tooDeep = (rel: string) => stop(`\`${rel.split(path.sep).join("/")}\` is more than ${limits.maxDepth} folders deep`);
  // Each entry's name is checked with its folder's (normalised) name alone: a folder is entered only when its own
  // path was neither an exec file nor sensitive, so the rules of the segments above it have all said no already.
  const visit = (dir: string, dirRel: string, parent: string, depth: number, entries = entriesOf(dir)) => {
    for (const entry of entries) {
      if (depth === 0 && entry.name === ".git") continue;
      if (overCap()) return;
      const abs = path.join(dir, entry.name);
      const rel = dirRel ? `${dirRel}${path.sep}${entry.name}` : entry.name;
      const name = normaliseName(entry.name);
      if (entry.name === "node_modules" && entry.isDirectory()) {
        protectInstalled(root, rel, out, config);
        continue;
      }
      if (execSegment(parent, name) !== null || configured(rel, name)) {
        out.readOnly.push(abs);
        out.execRels.add(rel);
        // An exec file that is a secret too (`.npmrc`: registry tokens) is read-only and shown empty.
        if (!entry.isDirectory() && sensitiveSegment(parent, name, entry.name, true) !== null) mask(out, abs);
        if (entry.name === ".git" && entry.isFile()) out.readOnly.push(...gitDirsOf(abs));
        // What is inside is listed too, so a file added to an existing folder (sandbox off) counts as new; of a git
        // dir only its hooks, the rest being git's own busy state.
        if (entry.isDirectory()) listInside(entry.name === ".git" ? path.join(abs, "hooks") : abs, 0);
        continue;
      }
      if (sensitiveSegment(parent, name, entry.name, true) !== null) {
        mask(out, abs);
        continue;
      }
      if (entry.isDirectory() && !SKIP.has(entry.name)) {
        const inside = entriesOf(abs);
        if (isGitDir(inside)) {
          out.readOnly.push(abs);
          out.execRels.add(rel);
          listInside(path.join(abs, "hooks"), 0);
        } else if (depth < limits.maxDepth) visit(abs, rel, name, depth + 1, inside);
        else tooDeep(rel);
      }
    }
  };
  const listInside = (dir: string, depth: number) => {
    for (const entry of entriesOf(dir)) {
      if (overCap()) return;
      const abs = path.join(dir, entry.name);
      out.execRels.add(path.relative(root, abs));
      // A secret file kept beside exec files (`.devcontainer/.env`) is masked like any other, over the read-only bind.
      if (execFileReason(entry.name) === null && sensitiveReason(entry.name) !== null) mask(out, abs);
      if (entry.isDirectory() && !entry.isSymbolicLink()) {
        if (depth < limits.maxDepth) listInside(abs, depth + 1);
        else tooDeep(path.relative(root, abs));
      }
    }
  };
  protectRootGit(root, out, (hooks) => listInside(hooks, 0));
  visit(root, "", "", 0);
  return out;
}

// The root's own `.git`, before the walk: a folder (its hooks listed), a file (the git dirs it points at), or a link
// (bound read-only where it points: bubblewrap binds the link's target).
function protectRootGit(root: string, out: ProtectedPaths, listHooks: (dir: string) => void): void {
  const rootGit = path.join(root, ".git");
  const gitStat = lstatOrNull(rootGit);
  if (!gitStat) return;
  out.readOnly.push(rootGit);
  out.execRels.add(".git");
  if (gitStat.isSymbolicLink()) return;
  if (gitStat.isFile()) out.readOnly.push(...gitDirsOf(rootGit));
  else listHooks(path.join(rootGit, "hooks"));
}

/**
 * Whether a folder's entries make it a git dir of its own, whatever its name: `HEAD` beside a `config`, `objects/` or
 * `refs/` (git itself needs HEAD, objects/ and refs/; a HEAD and a config are one `mkdir` away from that). `git status`
 * inside it (or in the work tree its config names) runs its fsmonitor, hooks and filters, as the project's own `.git`
 * would: the walk protects it as one.
 */
export function isGitDir(entries: readonly fs.Dirent[]): boolean {
  const names = new Set(entries.map((entry) => entry.name));
  return names.has("HEAD") && (names.has("config") || names.has("objects") || names.has("refs"));
}

function lstatOrNull(abs: string): fs.Stats | null {
  try {
    return fs.lstatSync(abs);
  } catch {
    return null;
  }
}

/** The git dir a `.git` file points at (`gitdir: …`) and its common dir (`commondir`), those that exist. */
export function gitDirsOf(dotGitFile: string): string[] {
  try {
    const line = /^gitdir:\s*(.+?)\s*$/m.exec(fs.readFileSync(dotGitFile, "utf8"));
    if (!line) return [];
    const gitDir = path.resolve(path.dirname(dotGitFile), line[1]);
    const dirs = fs.existsSync(gitDir) ? [gitDir] : [];
    const common = path.join(gitDir, "commondir");
    if (fs.existsSync(common)) {
      const commonDir = path.resolve(gitDir, fs.readFileSync(common, "utf8").trim());
      if (fs.existsSync(commonDir)) dirs.push(commonDir);
    }
    return dirs;
  } catch {
    return [];
  }
}

/** What the walk after a command found: the exec files it removed, and why it could not look everywhere (if so). */
export interface AfterCommand {
  removed: string[];
  incomplete?: string;
}

/**
 * Exec files a command created that were not there before it ran (found by a second walk), removed so the file
 * cannot run code later outside yolo. `node_modules/.bin` is left alone: installing packages creates it. The second
 * walk may go ten times further than the first (a command that made many files). The first walk saw everything, so
 * whatever the second finds that it did not see is new and goes, even when the second stops short; then `incomplete`
 * says why (the next command is refused by its own walk, and a `--branch` commit leaves exec files out).
 */
export function removeNewExecFiles(root: string, before: ProtectedPaths, limits: WalkLimits = DEFAULT_WALK_LIMITS, config?: ConfigProtection): AfterCommand {
  if (!before.complete) return { removed: [], ...(before.incomplete ? { incomplete: before.incomplete } : {}) };
  const after = findProtectedPaths(root, { ...limits, maxEntries: limits.maxEntries * 10 }, config);
  const removed: string[] = [];
  for (const rel of [...after.execRels].sort()) {
    if (before.execRels.has(rel) || /(^|[\\/])node_modules[\\/]\.bin$/.test(rel)) continue;
    // A new folder goes whole; what was inside it is not listed again.
    if (removed.some((r) => rel.startsWith(`${r}${path.sep}`))) continue;
    fs.rmSync(path.join(root, rel), { recursive: true, force: true });
    removed.push(rel);
  }
  const shown = removed.map((rel) => rel.split(path.sep).join("/"));
  return after.complete ? { removed: shown } : { removed: shown, incomplete: after.incomplete ?? "the walk stopped at its limits" };
}

// Shows a secret file or folder empty inside the sandbox (by its real path, so a link cannot dodge the mask).
function mask(out: ProtectedPaths, abs: string): void {
  const real = realOrNull(abs);
  if (real === null) return;
  const stat = fs.statSync(real);
  if (stat.isDirectory()) out.maskedDirs.push(real);
  else if (stat.isFile()) out.maskedFiles.push(real);
}

function realOrNull(abs: string): string | null {
  try {
    return fs.realpathSync(abs);
  } catch {
    return null;
  }
}

// A folder's entries; one that cannot be read (gone, no permission) has none.
function entriesOf(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** The content of the protected files that exist now (exec files, git config and hooks), to put back after a call. */
export type ProtectedContents = Map<string, Buffer>;

const KEPT_GIT_FILES = ["config", "config.worktree", "info/attributes", "info/exclude"];
const MAX_KEPT_FILES = 2000;
const MAX_KEPT_BYTES = 1024 * 1024;

/**
 * Reads the protected files a writer outside the sandbox could change (an MCP server started without one): every exec
 * file the walk listed, and the root git dir's config and attribute files. Bounded in files and size per file.
 */
export function keepProtectedContents(root: string, guard: ProtectedPaths): ProtectedContents {
  const kept: ProtectedContents = new Map();
  const rels = [...guard.execRels, ...KEPT_GIT_FILES.map((f) => path.join(".git", f))];
  for (const rel of rels) {
    if (kept.size >= MAX_KEPT_FILES) break;
    try {
      const abs = path.join(root, rel);
      const stat = fs.lstatSync(abs);
      if (stat.isFile() && stat.size <= MAX_KEPT_BYTES) kept.set(rel, fs.readFileSync(abs));
    } catch {
      // absent: nothing to put back
    }
  }
  return kept;
}

/** Puts back every kept file that was changed, replaced or removed since; returns their project-relative paths. */
export function restoreProtectedContents(root: string, kept: ProtectedContents): string[] {
  const restored: string[] = [];
  for (const [rel, content] of kept) {
    const abs = path.join(root, rel);
    let same = false;
    try {
      same = fs.lstatSync(abs).isFile() && fs.readFileSync(abs).equals(content);
    } catch {
      same = false;
    }
    if (same) continue;
    fs.rmSync(abs, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
    restored.push(rel.split(path.sep).join("/"));
  }
  return restored;
}

/**
 * A node_modules folder is not walked: its `.bin` (what package scripts run) and the packages yolo.config.* imports
 * from it (what the next run loads on the host: config-protection.ts) are protected.
 */
function protectInstalled(root: string, rel: string, out: ProtectedPaths, config?: ConfigProtection): void {
  const bin = path.join(root, rel, ".bin");
  if (fs.existsSync(bin)) {
    out.readOnly.push(bin);
    out.execRels.add(path.relative(root, bin));
  }
  for (const pkg of configuredPackages(root, config, rel)) {
    out.readOnly.push(path.join(root, pkg));
    out.execRels.add(pkg);
  }
}

// The configured paths inside the node_modules folder at `rel` (the walk does not enter it) that exist, native separators.
function configuredPackages(root: string, config: ConfigProtection | undefined, rel: string): string[] {
  const prefix = `${rel.split(path.sep).join("/")}/`;
  return (config?.dirs ?? [])
    .filter((dir) => dir.startsWith(prefix))
    .map((dir) => dir.split("/").join(path.sep))
    .filter((dir) => fs.existsSync(path.join(root, dir)));
}

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
  /** False when the walk stopped at its limits: then nothing found later is treated as new. */
  complete: boolean;
}

/** How deep and how much of the project is walked (per command; node_modules, .git and .yolo are not entered). */
const MAX_DEPTH = 6;
const MAX_ENTRIES = 20_000;
const SKIP = new Set(["node_modules", ".yolo"]);

/** Walks `root` for exec files and secret files; a `.git` file (worktree, submodule) adds the git dirs it points at. */
export function findProtectedPaths(root: string, config?: ConfigProtection): ProtectedPaths {
  const out: ProtectedPaths = { readOnly: [], maskedFiles: [], maskedDirs: [], execRels: new Set(), complete: true };
  let seen = 0;
  const configured = configMatcher(config);
  // Every entry walked counts toward MAX_ENTRIES; past it the walk stops and says it is incomplete.
  const overCap = () => {
    if (++seen <= MAX_ENTRIES) return false;
    out.complete = false;
    return true;
  };
  // Each entry's name is checked with its folder's (normalised) name alone: a folder is entered only when its own
  // path was neither an exec file nor sensitive, so the rules of the segments above it have all said no already.
  const visit = (dir: string, dirRel: string, parent: string, depth: number) => {
    for (const entry of entriesOf(dir)) {
      if (overCap()) return;
      const abs = path.join(dir, entry.name);
      const rel = dirRel ? `${dirRel}${path.sep}${entry.name}` : entry.name;
      const name = normaliseName(entry.name);
      if (entry.name === "node_modules" && entry.isDirectory()) {
        const bin = path.join(abs, ".bin");
        if (fs.existsSync(bin)) {
          out.readOnly.push(bin);
          out.execRels.add(path.relative(root, bin));
        }
        continue;
      }
      if (execSegment(parent, name) !== null || configured(rel, name)) {
        out.readOnly.push(abs);
        out.execRels.add(rel);
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
        if (depth < MAX_DEPTH) visit(abs, rel, name, depth + 1);
        else out.complete = false;
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
        if (depth < MAX_DEPTH) listInside(abs, depth + 1);
        else out.complete = false;
      }
    }
  };
  visit(root, "", "", 0);
  return out;
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

/**
 * Exec files a command created that were not there before it ran (found by a second walk), removed so the file
 * cannot run code later outside yolo. `node_modules/.bin` is left alone: installing packages creates it. Nothing is
 * removed when either walk was incomplete (a file it did not reach would look new). Returns the removed paths.
 */
export function removeNewExecFiles(root: string, before: ProtectedPaths, config?: ConfigProtection): string[] {
  if (!before.complete) return [];
  const after = findProtectedPaths(root, config);
  if (!after.complete) return [];
  const removed: string[] = [];
  for (const rel of [...after.execRels].sort()) {
    if (before.execRels.has(rel) || /(^|[\\/])node_modules[\\/]\.bin$/.test(rel)) continue;
    // A new folder goes whole; what was inside it is not listed again.
    if (removed.some((r) => rel.startsWith(`${r}${path.sep}`))) continue;
    fs.rmSync(path.join(root, rel), { recursive: true, force: true });
    removed.push(rel);
  }
  return removed.map((rel) => rel.split(path.sep).join("/"));
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

import fs from "node:fs";
import path from "node:path";
import { normaliseName } from "../secrets/sensitive.js";
import type { ConfigProtection } from "./settings.js";

/**
 * Files and folders whose content runs code outside yolo: git internals and attributes (hooks, fsmonitor, filters run
 * by the user's next git command), editor task and launch configs (run on folder open), direnv, CI configs (run with
 * the repository's credentials), hook managers, package-manager bins and hooks. One list for the sandbox (read-only
 * binds, new ones removed after each command) and the file tools (refused unless the user config allows one).
 */

/** Names that make a path such a file, wherever they appear (a directory name covers its whole subtree). */
const EXEC_NAMES = new Set([
  // git: its folder (or the `.git` file of a worktree or submodule), attributes (filter/diff drivers), submodules
  ".git",
  ".gitattributes",
  ".gitmodules",
  // editors: tasks, launch configs, workspace settings that name programs
  ".vscode",
  ".idea",
  ".zed",
  ".fleet",
  ".theia",
  ".devcontainer",
  ".devcontainer.json",
  // direnv and other run-on-cd tools
  ".envrc",
  ".direnv",
  ".mise.toml",
  "mise.toml",
  ".mise.local.toml",
  // CI configs: run with the repository's credentials (of `.github`, its workflows and actions: see below), and
  // composite actions wherever a workflow's `uses: ./path` finds them
  "action.yml",
  "action.yaml",
  ".gitlab-ci.yml",
  ".gitlab",
  ".circleci",
  ".travis.yml",
  ".buildkite",
  "azure-pipelines.yml",
  "bitbucket-pipelines.yml",
  "jenkinsfile",
  ".woodpecker",
  ".woodpecker.yml",
  ".drone.yml",
  // hook managers
  ".husky",
  ".githooks",
  ".pre-commit-config.yaml",
  ".pre-commit-hooks.yaml",
  "lefthook.yml",
  "lefthook.yaml",
  ".lefthook.yml",
  ".lefthook.yaml",
  "lefthook-local.yml",
  ".lefthook-local.yml",
  ".lefthook",
  ".overcommit.yml",
  ".simple-git-hooks.json",
  ".simple-git-hooks.js",
  ".simple-git-hooks.cjs",
  "simple-git-hooks.json",
  ".huskyrc",
  ".huskyrc.json",
  ".huskyrc.js",
  ".lintstagedrc",
  ".lintstagedrc.json",
  ".lintstagedrc.js",
  ".lintstagedrc.cjs",
  ".lintstagedrc.mjs",
  ".lintstagedrc.yml",
  ".lintstagedrc.yaml",
  "lint-staged.config.js",
  "lint-staged.config.cjs",
  "lint-staged.config.mjs",
  // package managers and runtimes: files that name a program the tool runs (npm's `script-shell`, `node-options`,
  // yarn's `yarnPath`, pnpm's install hooks, bun's preload, the interpreter a version manager's shim picks, pip's and
  // cargo's configs), read from the project by the user's next `npm`, `yarn`, `pnpm`, `bun`, `python`, `pip`, `cargo`
  ".npmrc",
  ".yarnrc",
  ".yarnrc.yml",
  ".pnpmfile.cjs",
  ".pnpmfile.mjs",
  "bunfig.toml",
  ".python-version",
  ".tool-versions",
  "pip.conf",
]);

/** Files that are exec files only inside one folder: cargo's config (`.cargo/config.toml`, the older `.cargo/config`). */
const EXEC_IN_FOLDER: Record<string, ReadonlySet<string>> = { ".cargo": new Set(["config", "config.toml"]) };

/**
 * yolo's own configuration and its agents' instructions, wherever they are (a nearer config or AGENTS.md counts in a
 * sub-folder): a config module runs on the host at the user's next command, `.mcp.json` starts programs, instruction
 * files and agent personas steer the next run's agents. The model may read them, never write them. Configured agent
 * folders and instruction names are added per run (ConfigProtection in settings.ts).
 */
export const CONFIG_NAMES = new Set([
  "yolo.config.ts",
  "yolo.config.mts",
  "yolo.config.cts",
  "yolo.config.js",
  "yolo.config.mjs",
  "yolo.config.cjs",
  "yolo.config.json",
  ".mcp.json",
  "agents.md",
  "agents.override.md",
  "claude.md",
  "claude.local.md",
  "gemini.md",
  ".cursorrules",
]);

/** Name endings of such files (VS Code workspace files carry tasks and launch configs). */
const EXEC_SUFFIXES = [".code-workspace"];

/** Why a project-relative path runs code outside yolo, or null. Names are normalised as secrets/sensitive.ts does. */
export function execFileReason(rel: string, config?: ConfigProtection): string | null {
  const segments = rel
    .split(/[\\/]+/)
    .filter((s) => s !== "" && s !== ".")
    .map(normaliseName);
  let parent = "";
  for (let i = 0; i < segments.length; i++) {
    const kind = execSegment(parent, segments[i]) ?? (config && configuredSegment(segments, i, config) ? "config" : null);
    const shown = kind === null ? "" : segments.slice(0, i + 1).join("/");
    if (kind === "file")
      return `\`${shown}\` (its content runs code outside yolo: git, an editor, direnv, CI, a hook manager or a package manager would run it)`;
    if (kind === "ci") return `\`${shown}\` (CI runs it outside yolo, with the repository's credentials)`;
    if (kind === "bin") return `\`${shown}\` (package-manager commands run these programs outside yolo)`;
    if (kind === "config")
      return `\`${shown}\` (yolo's configuration or its agents' instructions: it runs outside yolo's sandbox, or steers the agents, at the user's next command)`;
    parent = segments[i];
  }
  return null;
}

/**
 * The rule of execFileReason for one normalised segment after the normalised `parent` ("" at the project root):
 * an exec file or folder by its name, a CI folder (`.github/workflows`, `.github/actions`), `node_modules/.bin`, or
 * null. The walkers that have checked every folder above an entry (src/exec/protected-paths.ts) ask only this.
 */
export function execSegment(parent: string, name: string): "file" | "ci" | "bin" | "config" | null {
  if (EXEC_NAMES.has(name) || EXEC_SUFFIXES.some((suffix) => name.endsWith(suffix)) || EXEC_IN_FOLDER[parent]?.has(name)) return "file";
  if (CONFIG_NAMES.has(name)) return "config";
  if (parent === ".github" && (name === "workflows" || name === "actions")) return "ci";
  if (parent === "node_modules" && name === ".bin") return "bin";
  return null;
}

/**
 * True when segment `i` of a normalised path is one the run's config protects: an instruction file name (anywhere)
 * or the project's agents folder (`dirs`, project-relative, matched from the root).
 */
export function configuredSegment(segments: readonly string[], i: number, config: ConfigProtection): boolean {
  if (config.names.some((name) => normaliseName(name) === segments[i])) return true;
  return config.dirs.some((dir) => {
    const parts = dir
      .split(/[\\/]+/)
      .filter((s) => s !== "" && s !== ".")
      .map(normaliseName);
    return parts.length === i + 1 && parts.every((part, j) => part === segments[j]);
  });
}

/**
 * configuredSegment for the walkers, prepared once: given an entry's project-relative path (native separators) and its
 * normalised name, true when the config protects it. Cheap per entry: the path is normalised only at the folders'
 * depths.
 */
export function configMatcher(config: ConfigProtection | undefined): (rel: string, name: string) => boolean {
  if (!config || (config.names.length === 0 && config.dirs.length === 0)) return () => false;
  const names = new Set(config.names.map(normaliseName));
  const dirs = new Set(config.dirs.map((dir) => segmentsOf(dir).join("/")));
  const depths = new Set(config.dirs.map((dir) => segmentsOf(dir).length));
  return (rel, name) => names.has(name) || (dirs.size > 0 && depths.has(rel.split(/[\\/]+/).length) && dirs.has(segmentsOf(rel).join("/")));
}

/** True when a project-relative path is, or is inside, one of yolo's config files or folders (fixed or configured). */
export function isConfigPath(rel: string, config?: ConfigProtection): boolean {
  const segments = segmentsOf(rel);
  let parent = "";
  for (let i = 0; i < segments.length; i++) {
    const kind = execSegment(parent, segments[i]);
    if (kind === "config" || (kind === null && config && configuredSegment(segments, i, config))) return true;
    if (kind !== null) return false;
    parent = segments[i];
  }
  return false;
}

function segmentsOf(rel: string): string[] {
  return rel
    .split(/[\\/]+/)
    .filter((s) => s !== "" && s !== ".")
    .map(normaliseName);
}

/**
 * True when `rel` is one of the paths the user config lets the file tools write anyway (`files.allowExec`): the path
 * itself or a folder above it, compared after normalisation.
 */
export function execFileAllowed(rel: string, allowed: readonly string[]): boolean {
  const target = rel
    .split(/[\\/]+/)
    .filter((s) => s !== "" && s !== ".")
    .map(normaliseName);
  return allowed.some((entry) => {
    const prefix = entry
      .split(/[\\/]+/)
      .filter((s) => s !== "" && s !== ".")
      .map(normaliseName);
    return prefix.length > 0 && prefix.length <= target.length && prefix.every((seg, i) => seg === target[i]);
  });
}

/**
 * Why write_file / edit_file must not write `rel` (checked on the path and on its real location, so a folder link
 * cannot rename `.vscode`), or null when it is no exec file or the user config allows it.
 */
export function execWriteRefusal(root: string, abs: string, rel: string, allowed: readonly string[], config?: ConfigProtection): string | null {
  const gitDir = gitDirMade(root, abs);
  if (gitDir !== null)
    return `\`${rel}\` is refused: it would make \`${gitDir}\` a git dir of its own (HEAD beside a config, objects/ or refs/), whose config git would run at the user's next \`git status\` there. Keep repository data out of the project's files.`;
  const real = realRelative(root, abs);
  for (const candidate of real === null || real === rel ? [rel] : [rel, real]) {
    const reason = execFileReason(candidate, config);
    if (reason && !execFileAllowed(candidate, allowed)) {
      return `\`${rel}\` is refused: ${reason}. Work on the project's own source files instead; a user who wants yolo to write it lists it in \`files.allowExec\` in ~/.config/yolo/config.ts.`;
    }
  }
  return null;
}

const GIT_DIR_NAMES = ["HEAD", "config", "objects", "refs"];

// The project-relative folder (`/`-separated) that writing `abs` would make a git dir (HEAD beside a config, objects/
// or refs/: protected-paths.ts isGitDir), or null. Each folder between the root and `abs` is asked with the name
// `abs` adds to it.
function gitDirMade(root: string, abs: string): string | null {
  const parts = path.relative(root, abs).split(path.sep);
  for (let i = 0; i < parts.length - 1; i++) {
    const dir = path.join(root, ...parts.slice(0, i + 1));
    const names = new Set(GIT_DIR_NAMES.filter((name) => fs.existsSync(path.join(dir, name))));
    names.add(parts[i + 1]);
    if (names.has("HEAD") && (names.has("config") || names.has("objects") || names.has("refs"))) return parts.slice(0, i + 1).join("/");
  }
  return null;
}

// The project-relative real location of `abs` (its deepest existing ancestor resolved), or null.
function realRelative(root: string, abs: string): string | null {
  let existing = abs;
  const missing: string[] = [];
  while (!fs.existsSync(existing)) {
    const parent = path.dirname(existing);
    if (parent === existing) return null;
    missing.unshift(path.basename(existing));
    existing = parent;
  }
  try {
    return path
      .relative(fs.realpathSync(root), path.join(fs.realpathSync(existing), ...missing))
      .split(path.sep)
      .join("/");
  } catch {
    return null;
  }
}

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gitOk } from "../git/git.js";
import { isTestFile, PACKAGE_JSON_RUNNER_KEYS, runnerConfigFor } from "../gates/definition-patterns.js";
import { filesAt, modelTreeFiles, takeFilesFrom, untrackedFiles } from "./worktree.js";

/** Whether a project-relative path defines what the gate runs: a test file or a test runner's config file. */
export function isGateFile(path: string): boolean {
  return isTestFile(path) || runnerConfigFor(path) !== null;
}

/** The test and runner-config files that differ between the worktree's tree now and `start` (added, changed or deleted). */
export async function gateFilesChanged(dir: string, start: string): Promise<string[]> {
  const changed = (await gitOk(dir, ["diff", "--no-renames", "--name-only", "-z", start, "--"])).split("\0").filter(Boolean);
  const untracked = await untrackedFiles(dir);
  const files = [...new Set([...changed, ...untracked])].filter(isGateFile);
  if (changed.includes("package.json") && (await packageTestPart(dir, start)) !== packageTestPart(dir, null)) files.push("package.json");
  return files.sort();
}

/**
 * Puts back what defines the gate as it is at `commit` (the task's own tests): every test file and runner config
 * file (the model's added ones deleted, edited ones restored) and package.json's scripts and runner keys (the rest of
 * package.json, such as a dependency the fix needs, is the model's). The tree is then judged by the original tests.
 */
export async function restoreGateFiles(dir: string, commit: string): Promise<void> {
  const now = (await modelTreeFiles(dir)).filter(isGateFile);
  const then = (await filesAt(dir, commit)).filter(isGateFile);
  await takeFilesFrom(dir, commit, [...new Set([...now, ...then])]);
  const original = JSON.parse((await gitOk(dir, ["show", `${commit}:package.json`]).catch(() => "null")) || "null") as Record<string, unknown> | null;
  if (!original) return;
  const file = join(dir, "package.json");
  let current: Record<string, unknown> = {};
  try {
    current = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch {
    // A package.json the model broke or deleted: the original's scripts go into an otherwise empty one.
  }
  const keys = ["scripts", ...PACKAGE_JSON_RUNNER_KEYS];
  if (keys.every((k) => JSON.stringify(current[k]) === JSON.stringify(original[k]))) return;
  for (const key of keys) {
    if (original[key] === undefined) delete current[key];
    else current[key] = original[key];
  }
  writeFileSync(file, `${JSON.stringify(current, null, 2)}\n`);
}

// package.json's scripts and runner keys at a commit (or in the worktree when `rev` is null), as comparable text.
function packageTestPart(dir: string, rev: string | null): Promise<string> | string {
  const pick = (text: string) => {
    try {
      const pkg = JSON.parse(text) as Record<string, unknown>;
      return JSON.stringify(["scripts", ...PACKAGE_JSON_RUNNER_KEYS].map((k) => pkg[k] ?? null));
    } catch {
      return "unreadable";
    }
  };
  if (rev === null) {
    try {
      return pick(readFileSync(join(dir, "package.json"), "utf8"));
    } catch {
      return "missing";
    }
  }
  return gitOk(dir, ["show", `${rev}:package.json`]).then(pick, () => "missing");
}

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gitOk } from "../git/git.js";
import { isTestFile, PACKAGE_JSON_RESOLUTION_KEYS, PACKAGE_JSON_RUNNER_KEYS, runnerConfigFor } from "../gates/definition-patterns.js";
import { filesAt, modelTreeFiles, takeFilesFrom } from "./worktree.js";

/** Whether a project-relative path defines what the gate runs: a test file or a test runner's config file. */
export function isGateFile(path: string): boolean {
  return isTestFile(path) || runnerConfigFor(path) !== null;
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
  if (original) keepPackageTestKeys(dir, original);
}

/** The worktree's package.json as an object; null when it is missing or not JSON. */
export function readPackageJson(dir: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as unknown;
    return value && typeof value === "object" ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** package.json's keys the judge keeps as the task's: what runs the tests and (`#helper`, the module type, exports) where their imports resolve. */
export const PACKAGE_TEST_KEYS = ["scripts", ...PACKAGE_JSON_RUNNER_KEYS, ...PACKAGE_JSON_RESOLUTION_KEYS];

/**
 * Gives the worktree's package.json the `scripts`, runner and module-resolution keys of `original` (what runs the
 * tests and where their imports resolve), keeping the
 * rest of it (such as a dependency the fix needs). A package.json broken or deleted gets them in an otherwise empty one.
 */
export function keepPackageTestKeys(dir: string, original: Record<string, unknown>): void {
  const current = readPackageJson(dir) ?? {};
  if (PACKAGE_TEST_KEYS.every((k) => JSON.stringify(current[k]) === JSON.stringify(original[k]))) return;
  for (const key of PACKAGE_TEST_KEYS) {
    if (original[key] === undefined) delete current[key];
    else current[key] = original[key];
  }
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(current, null, 2)}\n`);
}

import type { GitOptions } from "../git/git.js";
import { gitOk } from "../git/git.js";
import { keepPackageTestKeys, PACKAGE_TEST_KEYS, readPackageJson } from "./gate-files.js";

/**
 * Makes the checkout of a candidate's commit (at `dir`) the tree the judge builds from the upstream fix: the judge
 * keeps package.json's scripts, runner keys and module-resolution keys as the task's tree has them, the parent's,
 * whatever a run writes (judge-tree.ts), so a target passing only with the commit's own (a new `main`) is no target
 * any run could pass. Returns the keys it put back, for a discarded candidate's reason.
 */
export async function asJudgedFix(dir: string, parent: string, git: GitOptions): Promise<string[]> {
  const text = await gitOk(dir, ["show", `${parent}:package.json`], {}, git).catch(() => null);
  const original = parsed(text);
  const current = readPackageJson(dir) ?? {};
  if (!original) return [];
  const changed = PACKAGE_TEST_KEYS.filter((k) => JSON.stringify(current[k]) !== JSON.stringify(original[k]));
  if (changed.length) keepPackageTestKeys(dir, original);
  return changed;
}

// A package.json's object; null when absent or not a JSON object (the judge keeps nothing then either).
function parsed(text: string | null): Record<string, unknown> | null {
  try {
    const value = text ? (JSON.parse(text) as unknown) : null;
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

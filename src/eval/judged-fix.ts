import { keepPackageTestKeys, PACKAGE_TEST_KEYS, readPackageJson } from "./gate-files.js";

/**
 * Makes the checkout of a candidate's commit (at `dir`) the tree the judge builds from the upstream fix: the judge
 * keeps package.json's scripts, runner keys and module-resolution keys as the task's tree has them, the parent's
 * (`parentPackage`, read at the parent end: no git process), whatever a run writes (judge-tree.ts), so a target
 * passing only with the commit's own (a new `main`) is no target any run could pass. Returns the keys it put back,
 * for a discarded candidate's reason.
 */
export function asJudgedFix(dir: string, parentPackage: Record<string, unknown> | null): string[] {
  if (!parentPackage) return [];
  const current = readPackageJson(dir) ?? {};
  const changed = PACKAGE_TEST_KEYS.filter((k) => JSON.stringify(current[k]) !== JSON.stringify(parentPackage[k]));
  if (changed.length) keepPackageTestKeys(dir, parentPackage);
  return changed;
}

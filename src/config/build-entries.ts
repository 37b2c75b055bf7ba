import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

/** How many builds' entries a cache folder keeps, this build's included (as the code cache: src/cli/light-loader.ts). */
export const KEPT_BUILDS = 4;

/**
 * Removes the entries of all but the builds that wrote last: entries are named `<build prefix>-…`, and a build's
 * newest entry dates it. Two installed yolos (a global one and a project's own) each keep theirs: removing every other
 * build's entries made them take turns validating again, YAML and zod loaded on every other start. `ownPrefix` is this
 * build's (kept); names without a prefix (`key`) are never removed.
 */
export function pruneOldBuilds(dir: string, ownPrefix: string): void {
  const newest = new Map<string, number>();
  const names = readdirSync(dir);
  for (const name of names) {
    const prefix = prefixOf(name);
    if (prefix === null) continue;
    const mtime = statSync(join(dir, name), { throwIfNoEntry: false })?.mtimeMs ?? 0;
    newest.set(prefix, Math.max(newest.get(prefix) ?? 0, mtime));
  }
  newest.set(ownPrefix, Number.POSITIVE_INFINITY);
  const kept = new Set(
    [...newest]
      .sort((a, b) => b[1] - a[1])
      .slice(0, KEPT_BUILDS)
      .map(([prefix]) => prefix),
  );
  for (const name of names) {
    const prefix = prefixOf(name);
    if (prefix !== null && !kept.has(prefix)) rmSync(join(dir, name), { force: true, recursive: true });
  }
}

// `<12 hex digits>-…`: an entry of the build those digits name; anything else is not an entry.
function prefixOf(name: string): string | null {
  return /^[0-9a-f]{12}-/.exec(name)?.[0] ?? null;
}

import { createHash } from "node:crypto";
import { readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { types } from "node:util";
import { pruneOldBuilds } from "./build-entries.js";
import { privateCacheDir } from "./private-dir.js";

/** Where validated config values are remembered (a private directory, see privateCacheDir), per build. */
export interface ValidationCache {
  dir: string;
  /** Identifies the build that validated (its sources and locked dependencies): another build validates again. */
  build: string;
}

export { privateCacheDir } from "./private-dir.js";

/**
 * A value as JSON when it is plain data that JSON represents exactly (objects, arrays, strings, finite numbers,
 * booleans, null; no functions, getters, proxies, class instances, undefined or holes), else null: only such a value
 * validates the same every time, so only it may be answered from the cache.
 */
export function plainJson(value: unknown): string | null {
  return isPlain(value, 0) ? JSON.stringify(value) : null;
}

function isPlain(value: unknown, depth: number): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
  if (typeof value !== "object" || depth > 64 || types.isProxy(value)) return false;
  const proto = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (proto !== Array.prototype || Object.keys(value).length !== value.length) return false;
  } else if (proto !== Object.prototype && proto !== null) return false;
  if (Object.getOwnPropertySymbols(value).length) return false;
  for (const [key, d] of Object.entries(Object.getOwnPropertyDescriptors(value))) {
    if (Array.isArray(value) && key === "length") continue;
    if (!("value" in d) || !d.enumerable || !isPlain(d.value, depth + 1)) return false;
  }
  return true;
}

// One file per (build, kind, value), named after the build; the file repeats all three, and only an exact match is used.
function entryPath(cache: ValidationCache, kind: string, input: string): string {
  const key = createHash("sha256").update(`${cache.build}\0${kind}\0${input}`).digest("hex").slice(0, 40);
  return join(cache.dir, `${buildPrefix(cache)}${key}.json`);
}

const buildPrefix = (cache: ValidationCache) => `${createHash("sha256").update(cache.build).digest("hex").slice(0, 12)}-`;

/** The validated output remembered for exactly this value, kind and build; undefined when there is none. */
export function cachedValidation(cache: ValidationCache, kind: string, value: unknown): unknown {
  const input = plainJson(value);
  if (input === null || !privateCacheDir(cache.dir)) return undefined;
  try {
    const entry = JSON.parse(readFileSync(entryPath(cache, kind, input), "utf8")) as Record<string, unknown>;
    if (entry.build !== cache.build || entry.kind !== kind || entry.input !== input || typeof entry.output !== "string") return undefined;
    return JSON.parse(entry.output);
  } catch {
    return undefined;
  }
}

/** Remembers a valid value's output (best effort: a cache that cannot be written only costs the next load time). */
export function storeValidation(cache: ValidationCache, kind: string, value: unknown, output: unknown): void {
  const input = plainJson(value);
  const out = plainJson(output);
  if (input === null || out === null || !privateCacheDir(cache.dir)) return;
  const path = entryPath(cache, kind, input);
  try {
    // When this build stores its first entry, those of builds not used for a while go (build-entries.ts).
    if (!readdirSync(cache.dir).some((name) => name.startsWith(buildPrefix(cache)))) pruneOldBuilds(cache.dir, buildPrefix(cache));
    // Written beside and renamed, so a reader never sees half an entry.
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ build: cache.build, kind, input, output: out }), { mode: 0o600 });
    renameSync(tmp, path);
  } catch {
    // best effort
  }
}

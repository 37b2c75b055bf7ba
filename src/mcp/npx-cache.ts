import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";

/** npx's own flags that change nothing about which package it runs; any other flag leaves the command to npx. */
const QUIET_FLAGS = new Set(["-y", "--yes", "-q", "--quiet", "--offline", "--prefer-offline"]);

/** A package runner's cached install of a server's package (npx's; pipx's: pipx-cache.ts; bunx's: bunx-cache.ts). */
export interface NpxCached {
  /** The runner whose cache it is. */
  runner: "npx" | "pipx" | "bunx";
  /** The cache folder it looked in (npm's `~/.npm`, or the one the environment or ~/.npmrc names; pipx's). */
  cache: string;
  /** The package as the command asked for it (`@scope/pkg`, `pkg@1.2`). */
  spec: string;
  /** The installed package's program, when npx has run it before; null when it is not in the cache. */
  bin: string | null;
  /** The command that puts the package in the cache, run once outside yolo. */
  warm: string;
  /** The arguments after the package, given to its program. */
  rest: string[];
  /** The runtime that runs `bin` (bun, for `bunx --bun`); absent: `bin` runs by its own shebang. */
  runtime?: string;
}

/** The command and arguments that start a cached package's program, or null when it is not in the cache. */
export function cachedProgram(cached: NpxCached | null): { command: string; args: string[] } | null {
  if (!cached?.bin) return null;
  return cached.runtime ? { command: cached.runtime, args: [cached.bin, ...cached.rest] } : { command: cached.bin, args: cached.rest };
}

/**
 * Reads where an `npx [-y] <package> [args…]` server's package sits in the user's npx cache, from the files npx left
 * there: nothing is run on the host, and nothing in the project is read but whether it installed the package itself
 * (then npx would run the project's copy, and so it is left to npx). Null for other commands and forms (`-p`, several
 * packages), which npx then resolves in the sandbox as before.
 */
export function npxCached(command: string, args: readonly string[], env: NodeJS.ProcessEnv, root: string): NpxCached | null {
  if (command !== "npx" && !command.endsWith("/npx")) return null;
  const at = args.findIndex((a) => !QUIET_FLAGS.has(a));
  const spec = args[at];
  if (at < 0 || !spec || spec.startsWith("-")) return null;
  const name = packageName(spec);
  const cache = npmCacheFolder(env);
  if (!name || !cache || existsSync(join(root, "node_modules", name, "package.json"))) return null;
  return { runner: "npx", cache, spec, warm: `npx -y ${spec}`, bin: installedBin(join(cache, "_npx", npxFolder(spec)), name), rest: args.slice(at + 1) };
}

/** The npm cache folder: `npm_config_cache` in the environment, else `cache=` in ~/.npmrc, else ~/.npm. */
export function npmCacheFolder(env: NodeJS.ProcessEnv): string | null {
  const named = env.npm_config_cache ?? env.NPM_CONFIG_CACHE;
  if (named && isAbsolute(named)) return named;
  const home = env.HOME;
  if (!home || !isAbsolute(home)) return null;
  const npmrc = join(home, ".npmrc");
  const line = existsSync(npmrc) ? /^\s*cache\s*=\s*(.+?)\s*$/m.exec(readFileSync(npmrc, "utf8")) : null;
  if (line) return resolve(home, line[1].replace(/^~(?=\/)/, home));
  return join(home, ".npm");
}

// npx's folder for one requested package: the first 16 hex digits of the sha512 of the request (npm 7 and later).
function npxFolder(spec: string): string {
  return createHash("sha512").update(spec).digest("hex").slice(0, 16);
}

// `@scope/pkg@1.2` → `@scope/pkg`; null for what is not a registry name (a path, a URL, a git spec).
function packageName(spec: string): string | null {
  const match = /^((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)(?:@[^/]*)?$/i.exec(spec);
  return match ? match[1] : null;
}

// The program npx would run from an installed package: its only bin, or the one named after the package.
function installedBin(folder: string, name: string): string | null {
  const pkgDir = join(folder, "node_modules", name);
  let bin: unknown;
  try {
    bin = (JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as { bin?: unknown }).bin;
  } catch {
    return null;
  }
  const plain = name.replace(/^@[^/]+\//, "");
  const entries = typeof bin === "string" ? [[plain, bin]] : bin && typeof bin === "object" ? Object.entries(bin) : [];
  const chosen = entries.length === 1 ? entries[0] : entries.find(([key]) => key === plain);
  if (!chosen || typeof chosen[1] !== "string") return null;
  const file = resolve(pkgDir, chosen[1]);
  return file.startsWith(`${pkgDir}/`) && existsSync(file) && statSync(file).isFile() ? file : null;
}

import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { findOnPath, isExecutableFile } from "../fs/on-path.js";
import type { NpxCached } from "./npx-cache.js";

/** bunx's own flags that change nothing about which package it runs; any other flag leaves the command to bunx. */
const QUIET_FLAGS = new Set(["--silent", "--verbose", "--no-install"]);
/** bunx's flags that run the package's program in bun instead of Node. */
const BUN_FLAGS = new Set(["--bun", "-b"]);

/**
 * Reads where a `bunx [--bun] <package>[@version] [args…]` (or `bun x …`) server's package sits in the user's bunx
 * cache, from the files bunx left there: nothing is run on the host. bun installs each request in its own folder,
 * `<install cache>/.bunx-<uid>/<package>@<version or "latest">/node_modules/<package>` (bun 1.4; bun 1.2 used
 * `/tmp/bunx-<uid>-<package>@<version or "latest">`). Its program runs as bunx runs it: by its shebang (Node), or by
 * bun with `--bun` or when there is no `node` on PATH (bunx then stands bun in for Node). Null for other commands and forms (URLs, git specs, unknown flags), which bunx then resolves in the sandbox
 * as before, and when the project or PATH has the program, which bunx would run instead.
 */
export function bunxCached(command: string, args: readonly string[], env: NodeJS.ProcessEnv, root: string): NpxCached | null {
  const request = bunxRequest(command, args);
  const cache = request && bunCacheFolder(env);
  if (!request || !cache) return null;
  const { name, version, inBun, at } = request;
  const plain = name.replace(/^@[^/]+\//, "");
  if (existsSync(join(root, "node_modules", name, "package.json")) || (!version && findOnPath(plain, env.PATH))) return null;
  const bun = bunBinary(command, env.PATH);
  if (!bun) return null;
  const spec = version ? `${name}@${version}` : name;
  const uid = process.getuid?.() ?? 0;
  const installs = join(cache, `.bunx-${uid}`);
  const folder = `${name}@${version ?? "latest"}`;
  // bun 1.4's folder first; bun 1.2 kept them in /tmp whatever TMPDIR says, where only one the user owns is taken.
  const folders = [join(installs, folder), ...ownedBy(uid, `/tmp/bunx-${uid}-${folder}`)];
  const bin = folders.map((dir) => installedBin(join(dir, "node_modules", name), plain)).find(Boolean) ?? null;
  const runtime = inBun || !findOnPath("node", env.PATH) ? bun : undefined;
  const warm = `bunx ${inBun ? "--bun " : ""}${spec}`;
  return { runner: "bunx", cache: installs, spec, warm, bin, runtime, rest: args.slice(at + 1) };
}

// The package a bunx command asks for, whether it asks for bun, and the index of the package among `args`.
function bunxRequest(command: string, args: readonly string[]): { name: string; version?: string; inBun: boolean; at: number } | null {
  const program = basename(command);
  let at = program === "bunx" ? 0 : program === "bun" && args[0] === "x" ? 1 : -1;
  if (at < 0) return null;
  let inBun = false;
  for (; at < args.length && args[at].startsWith("-"); at++) {
    if (BUN_FLAGS.has(args[at])) inBun = true;
    else if (!QUIET_FLAGS.has(args[at])) return null;
  }
  // A registry name with an optional version or tag; a version with `:` or `/` (a URL, a git or file spec) is left.
  const match = /^((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)(?:@([^:/\\]+))?$/i.exec(args[at] ?? "");
  return match ? { name: match[1], version: match[2], inBun, at } : null;
}

/**
 * bun's global install cache, where bunx keeps its installs, as bun 1.x finds it: BUN_INSTALL_CACHE_DIR, else
 * `[install.cache] dir` in the user's bunfig (`$XDG_CONFIG_HOME/.bunfig.toml`, else `~/.bunfig.toml`; never the
 * project's, which bunx does not read for it), else `$BUN_INSTALL/install/cache`, else
 * `$XDG_CACHE_HOME/.bun/install/cache`, else `~/.bun/install/cache`.
 */
export function bunCacheFolder(env: NodeJS.ProcessEnv): string | null {
  const abs = (p: string | undefined) => (p && isAbsolute(p) ? p : null);
  const named = abs(env.BUN_INSTALL_CACHE_DIR);
  if (named) return named;
  const home = abs(env.HOME);
  const configured = bunfigCacheDir([abs(env.XDG_CONFIG_HOME), home], home);
  if (configured) return configured;
  const install = abs(env.BUN_INSTALL);
  if (install) return join(install, "install/cache");
  const xdg = abs(env.XDG_CACHE_HOME);
  if (xdg) return join(xdg, ".bun/install/cache");
  return home ? join(home, ".bun/install/cache") : null;
}

// `dir = "…"` of the `[install.cache]` table in the first user bunfig present (`~` is the home folder).
function bunfigCacheDir(folders: (string | null)[], home: string | null): string | null {
  const file = folders.map((d) => d && join(d, ".bunfig.toml")).find((f) => f && existsSync(f));
  if (!file) return null;
  let table = "";
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const header = /^\s*\[\s*([\w.]+)\s*\]/.exec(line);
    if (header) table = header[1];
    const dir = /^\s*dir\s*=\s*["']([^"']+)["']/.exec(line);
    if (table === "install.cache" && dir) {
      const value = home ? dir[1].replace(/^~(?=\/|$)/, home) : dir[1];
      return isAbsolute(value) ? value : null;
    }
  }
  return null;
}

// The bun binary that runs the package with `--bun`: beside an absolute `bunx`/`bun` command, else on PATH; real path,
// so the sandbox shows the file itself when a link to it sits in a hidden folder.
function bunBinary(command: string, path: string | undefined): string | null {
  const beside = isAbsolute(command) ? join(dirname(command), "bun") : null;
  const found = beside && isExecutableFile(beside) ? beside : findOnPath("bun", path);
  try {
    return found ? realpathSync(found) : null;
  } catch {
    return null;
  }
}

// `dir` when it is a folder owned by `uid` (in a folder anyone may write to, such as /tmp), else nothing.
function ownedBy(uid: number, dir: string): string[] {
  try {
    const stat = statSync(dir);
    return stat.isDirectory() && stat.uid === uid ? [dir] : [];
  } catch {
    return [];
  }
}

// The program bunx runs from an installed package: the bin named after the package, else its first; a string bin.
function installedBin(pkgDir: string, plain: string): string | null {
  let bin: unknown;
  try {
    bin = (JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as { bin?: unknown }).bin;
  } catch {
    return null;
  }
  const entries = typeof bin === "string" ? [[plain, bin]] : bin && typeof bin === "object" ? Object.entries(bin) : [];
  const chosen = entries.find(([key]) => key === plain) ?? entries[0];
  if (!chosen || typeof chosen[1] !== "string") return null;
  const file = resolve(pkgDir, chosen[1]);
  return file.startsWith(`${pkgDir}/`) && existsSync(file) && statSync(file).isFile() ? file : null;
}

import { isAscii } from "node:buffer";
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
import { Script } from "node:vm";
import { privateCacheDir } from "../config/private-dir.js";
import { userCacheDir } from "../config/user-cache-dir.js";
import { packedRequire, type RunPack } from "./run-packs.js";

// Built into dist/cli/light-loader.cjs, which bin/yolo.js requires (CommonJS: no ES module loader on this path).

/** The commands the light CLI answers (bin/yolo.js sends only these; anything else is handed off anyway). */
export const LIGHT_COMMANDS: ReadonlySet<string> = new Set(["threads", "show", "history", "graph"]);

/** The commands the run bundle (dist/cli/run.cjs: the whole CLI but the live view) runs, through the same cache. */
export const RUN_COMMANDS: ReadonlySet<string> = new Set(["run", "resume", "agent", "chat"]);

/** The bundle that runs a command: the run bundle for RUN_COMMANDS, else the light CLI. */
export function bundleFor(command: string): "run.cjs" | "light.cjs" {
  return RUN_COMMANDS.has(command) ? "run.cjs" : "light.cjs";
}

/** What identifies a code cache entry besides the command: the build and the Node it was made by. */
export interface CodeCacheKey {
  /** The build's identity (scripts/build.mjs: a hash of the sources and the lockfile). */
  build: string;
  /** The command, one of LIGHT_COMMANDS or RUN_COMMANDS: each has its own entry, holding the functions it compiled. */
  command: string;
}

/**
 * Runs the light CLI (dist/cli/light.cjs, a CommonJS bundle of src/cli/main.ts without the heavy modules), or for
 * RUN_COMMANDS the run bundle (dist/cli/run.cjs, all of it but the live view; its packs required through
 * src/cli/run-packs.ts), on `argv`,
 * compiled from a V8 code cache in the user's cache directory when there is a valid one, and writes one after a
 * successful command when there was none. Rejects with the light CLI's HandOff when the full CLI must run the command
 * (nothing was printed then).
 */
export async function runLight(argv: string[], options: { dist: string; env: Readonly<Record<string, string | undefined>>; key: CodeCacheKey }): Promise<void> {
  const file = join(options.dist, "cli", bundleFor(options.key.command));
  const source = wrappedSource(file);
  const cached = LIGHT_COMMANDS.has(options.key.command) || RUN_COMMANDS.has(options.key.command);
  const dir = cached ? privateCacheDir(join(userCacheDir(options.env), "code")) : null;
  const entry = dir ? readEntry(dir, options.key, source.length) : null;
  const script = compile(source, file, entry?.data ?? null);
  const mod = { exports: {} as { main(argv: string[]): Promise<void> } };
  const nodeRequire = createRequire(file);
  const require = RUN_COMMANDS.has(options.key.command) ? packedRequire(options.dist, nodeRequire, packRunner(options.key, dir)) : nodeRequire;
  if (dir && RUN_COMMANDS.has(options.key.command) && (!entry || script.cachedDataRejected)) {
    atFirstOutput(() => writeEntry(dir, options.key, source.length, 0, script));
  }
  script.runInThisContext()(mod.exports, require, mod, file, dirname(file), pathToFileURL(file).href);
  await mod.exports.main(argv);
  if (RUN_COMMANDS.has(options.key.command)) return;
  // A cache is made from a command that succeeded: it holds the functions the command's usual path compiled. One made
  // by a run that loaded fewer CommonJS modules (`threads` before there was a database: no SQLite driver) gives way
  // to a fuller one, once.
  const rank = Object.keys(require.cache).length;
  if (dir && (process.exitCode ?? 0) === 0 && (!entry || script.cachedDataRejected || rank > entry.rank)) {
    writeEntry(dir, options.key, source.length, rank, script);
  }
}

/**
 * Calls `make` once, just before the first write to stdout (a run's first event), and not at all if nothing is written.
 * A run's cache holds what its start compiled: one made when the run ended held every function of the engine, about
 * 3 MB that V8 deserializes eagerly, which cost more at the next start than compiling those functions lazily; the
 * start is also what `run` and `resume` are timed by. It is made whatever the exit code then: a cache holds compiled
 * code of this very source (V8 checks that much), so it changes how fast the bundle starts, never what it does.
 */
export function atFirstOutput(make: () => void): void {
  const stdout = process.stdout;
  const write = stdout.write;
  stdout.write = function (this: NodeJS.WriteStream, ...args: Parameters<typeof write>) {
    stdout.write = write;
    make();
    return write.apply(this, args);
  } as typeof write;
}

/**
 * Runs one of the run bundle's packs (src/cli/run-packs.ts) through its own code cache entry (`run.run-engine.cjs`,
 * …), made right after it ran when there was none: the pack has just evaluated its modules, so the entry holds their
 * top-level code, compiled once instead of on every run. The start-up tests are told the pack's file.
 */
function packRunner(key: CodeCacheKey, dir: string | null): RunPack {
  return (file, require) => {
    const report = (globalThis as Record<symbol, unknown>)[Symbol.for("yolo.bundle-module-evaluated")];
    if (typeof report === "function") report(`file:cli/${basename(file)}`);
    const packKey = { ...key, command: `${key.command}.${basename(file)}` };
    const source = wrappedSource(file);
    const entry = dir ? readEntry(dir, packKey, source.length) : null;
    const script = compile(source, file, entry?.data ?? null);
    const mod = { exports: {} as ReturnType<RunPack> };
    script.runInThisContext()(mod.exports, require, mod, file, dirname(file), pathToFileURL(file).href);
    if (dir && (!entry || script.cachedDataRejected)) writeEntry(dir, packKey, source.length, 0, script);
    return mod.exports;
  };
}

/** How a bundle's code is wrapped: the function Node would wrap a CommonJS module in, plus import.meta.url's stand-in. */
export const LOADER_HEAD = "(function (exports, require, module, __filename, __dirname, __yolo_import_meta_url) {";
const LOADER_HEAD_BYTES = Buffer.from(LOADER_HEAD, "latin1");

/**
 * The bundle as that function. The build writes the bundles wrapped already (scripts/build.mjs, wrapForLoader), so the
 * text is compiled as read; one that is not (built otherwise) is wrapped here, at the cost of copying it once more.
 */
export function wrappedSource(file: string): string {
  const bytes = readFileSync(file);
  // The build writes both bundles wrapped and in ASCII only (scripts/build.mjs checks), and ASCII decodes to the same
  // text as latin1, one byte a character, V8's faster string: a bundle as the build wrote it is not scanned for other
  // bytes first (4 MB: a measurable part of every run's start; docs/performance.md).
  if (bytes.subarray(0, LOADER_HEAD_BYTES.length).equals(LOADER_HEAD_BYTES)) return bytes.toString("latin1");
  // Built otherwise: decoded as what it is, then wrapped.
  return `${LOADER_HEAD}${bytes.toString(isAscii(bytes) ? "latin1" : "utf8")}\n})`;
}

/**
 * Compiles with V8's checksum of the cache's payload checked: a release V8 checks only the cache's version, flags
 * and the source's length, so a corrupted payload would be deserialized (it can crash the process) and another
 * script's cache of the same length would run that script's code. Only the compilation sees the flag; it is set back
 * at once, because V8's flag hash is also part of Node's own built-in code caches.
 */
export function compile(source: string, filename: string, cachedData: Buffer | null): Script {
  if (!cachedData) return new Script(source, { filename });
  setFlagsFromString("--verify-snapshot-checksum");
  try {
    return new Script(source, { filename, cachedData });
  } finally {
    setFlagsFromString("--no-verify-snapshot-checksum");
  }
}

/** The first line of an entry: everything it must match besides V8's own checks (the payload's checksum included). */
export function entryHeader(key: CodeCacheKey, sourceLength: number): string {
  return `yolo code cache 1; build ${key.build}; command ${key.command}; node ${process.version} ${process.arch} v8 ${process.versions.v8}; source ${sourceLength}; rank `;
}

/** An entry's file: one per command, build and Node (the header repeats them; only an exact match is used). */
export function entryPath(dir: string, key: CodeCacheKey): string {
  return join(dir, `${key.build.slice(0, 16)}-${key.command}-${process.version}-${process.arch}.bin`);
}

/** The cached data and rank of a valid entry, or null (none, unreadable, or made for another build, Node or source). */
export function readEntry(dir: string, key: CodeCacheKey, sourceLength: number): { data: Buffer; rank: number } | null {
  let file: Buffer;
  try {
    file = readFileSync(entryPath(dir, key));
  } catch {
    return null;
  }
  const header = Buffer.from(entryHeader(key, sourceLength), "latin1");
  const end = file.indexOf(10, header.length);
  if (end < 0 || end > header.length + 10 || !file.subarray(0, header.length).equals(header)) return null;
  const rank = Number(file.toString("latin1", header.length, end));
  return Number.isSafeInteger(rank) ? { data: file.subarray(end + 1), rank } : null;
}

/** Writes an entry (private, beside and renamed, so a reader never sees half of one). */
export function writeEntry(dir: string, key: CodeCacheKey, sourceLength: number, rank: number, script: Script): void {
  try {
    setFlagsFromString("--verify-snapshot-checksum");
    let data: Buffer;
    try {
      data = script.createCachedData();
    } finally {
      setFlagsFromString("--no-verify-snapshot-checksum");
    }
    pruneOtherBuilds(dir, key);
    const path = entryPath(dir, key);
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, Buffer.concat([Buffer.from(`${entryHeader(key, sourceLength)}${rank}\n`, "latin1"), data]), { mode: 0o600 });
    renameSync(tmp, path);
  } catch {
    // Best effort: without a cache the next command only compiles again.
  }
}

// The build's identity, set by scripts/build.mjs (this module only runs built).
declare const __YOLO_BUILD_ID__: string | undefined;

/** bin/yolo.js's entry: the light CLI for `command` (one of LIGHT_COMMANDS), its code cache keyed by this build. */
export function runLightCli(argv: string[], dist: string, command: string): Promise<void> {
  return runLight(argv, { dist, env: process.env, key: { build: typeof __YOLO_BUILD_ID__ === "string" ? __YOLO_BUILD_ID__ : "source", command } });
}

// Entries of builds other than the few written last go: another installed yolo (a global and a project's own) keeps
// its entries rather than both making theirs again on every command.
function pruneOtherBuilds(dir: string, key: CodeCacheKey): void {
  const newest = new Map<string, number>();
  const names = readdirSync(dir);
  for (const name of names) {
    const build = name.split("-")[0];
    const mtime = statSync(join(dir, name), { throwIfNoEntry: false })?.mtimeMs ?? 0;
    newest.set(build, Math.max(newest.get(build) ?? 0, mtime));
  }
  newest.set(key.build.slice(0, 16), Number.POSITIVE_INFINITY);
  const kept = new Set(
    [...newest]
      .sort((a, b) => b[1] - a[1])
      .slice(0, KEPT_BUILDS)
      .map(([build]) => build),
  );
  for (const name of names) if (!kept.has(name.split("-")[0])) rmSync(join(dir, name), { force: true, recursive: true });
}

const KEPT_BUILDS = 4;

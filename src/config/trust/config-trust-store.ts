import { createHash } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { ConfigBundle } from "../bundle/build.js";
import type { Witnesses } from "../bundle/witness.js";
import { privateCacheDir } from "../private-dir.js";
import { ConfigError } from "../../errors.js";

/** What the user trusted for one project root. */
export interface TrustEntry {
  /** The trusted bundle's sha256, or `none`: the project had no config (one that appears is a change). */
  sha256: string;
  /** sha256 of the bundled files' paths and contents (build.ts). */
  inputsSha256?: string;
  /** sha256 of .mcp.json, null when there was none. */
  mcp: string | null;
  /** The config file as found (`<root>/yolo.config.ts`, a link maybe), null without one. */
  config: string | null;
  inputs: string[];
  /** Absent in an entry an older yolo wrote (a hash of files, no bundle): such an entry is trusted again by the user. */
  witnesses?: Witnesses;
  trustedAt: string;
}

/** One project root's entry: `trusted-config/<sha256 of the root>.json` in the user's state folder. */
export function configTrustEntryFile(stateDir: string, root: string): string {
  return join(stateDir, "trusted-config", `${createHash("sha256").update(root).digest("hex").slice(0, 32)}.json`);
}

/**
 * The entry for `root`, or null (none, or unreadable: nothing trusted, the safe reading). One small file per root, so a
 * command reads only its own project's record. A root an older yolo recorded in the single `trusted-config.json` (every
 * root in one file, read and rewritten whole by every command) is still held to that record: a config changed since
 * must be refused, not taken for a project never seen. That file is split into records of their own at the first miss
 * (splitLegacyStore), so the next project yolo never saw reads one missing file instead of the whole old store.
 */
export function readConfigTrust(stateDir: string, root: string): TrustEntry | null {
  const own = entryIn(readJson(configTrustEntryFile(stateDir, root)), root);
  if (own !== undefined) return own;
  const legacyFile = join(stateDir, LEGACY_STORE);
  const legacy = readJson(legacyFile);
  // No old store (none ever, or split already): a split that ended before this read wrote the root's record first,
  // so the record is read once more rather than taking the root for one never seen.
  if (legacy === undefined) return entryIn(readJson(configTrustEntryFile(stateDir, root)), root) ?? null;
  if (!legacy || typeof legacy !== "object") return null;
  splitLegacyStore(stateDir, legacyFile, legacy as Record<string, unknown>);
  return entryOf((legacy as Record<string, unknown>)[root]);
}

/** Replaces the entry for `root`: written whole to a temp file and renamed, so a crash never leaves half an entry. */
export function writeConfigTrust(stateDir: string, root: string, entry: TrustEntry): void {
  const file = configTrustEntryFile(stateDir, root);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ root, ...entry }, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, file);
}

const LEGACY_STORE = "trusted-config.json";

/**
 * Writes each root of the old single store as a record of its own, unless the root has one already (written since: it
 * is the newer, and linking never replaces a file, so two commands splitting at once cannot undo a newer record), then
 * sets the old store aside (`.split`, kept for the user). Best effort: what could not be written is read from the old
 * store again next time.
 */
function splitLegacyStore(stateDir: string, legacyFile: string, legacy: Record<string, unknown>): void {
  try {
    mkdirSync(join(stateDir, "trusted-config"), { recursive: true, mode: 0o700 });
    for (const [root, value] of Object.entries(legacy)) {
      const entry = entryOf(value);
      if (entry) keepFirst(configTrustEntryFile(stateDir, root), `${JSON.stringify({ root, ...entry }, null, 2)}\n`);
    }
    renameSync(legacyFile, `${legacyFile}.split`);
  } catch {
    // Not split (a full disk, a folder not ours): the old store is read as before.
  }
}

// Writes `text` to `file` unless it exists (a temp file linked into place: a reader never sees half a record).
function keepFirst(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: 0o600 });
  try {
    linkSync(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    rmSync(temp, { force: true });
  }
}

// undefined: no such file; null: a file that cannot be read or parsed.
function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? undefined : null;
  }
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

// undefined: no entry file for this root (look further); null: a file that is not a valid entry for it.
function entryIn(value: unknown, root: string): TrustEntry | null | undefined {
  if (value === undefined) return undefined;
  if (!value || typeof value !== "object" || (value as { root?: unknown }).root !== root) return null;
  const { root: _root, ...entry } = value as Record<string, unknown>;
  return entryOf(entry);
}

function entryOf(value: unknown): TrustEntry | null {
  const entry = value as Partial<TrustEntry> | undefined;
  if (!entry || typeof entry !== "object" || typeof entry.sha256 !== "string") return null;
  return { mcp: null, config: null, inputs: [], trustedAt: "", ...entry } as TrustEntry;
}

/** Writes a bundle as `config-bundles/<sha256>.cjs` beside the store, in a folder only this user can write; its path. */
export function storeBundle(stateDir: string, bundle: ConfigBundle): string {
  const dir = privateCacheDir(join(stateDir, "config-bundles"));
  if (!dir) throw new ConfigError(`Cannot keep the trusted config in ${join(stateDir, "config-bundles")}: it must be a folder only you can write.`);
  const file = join(dir, `${bundle.sha256}.cjs`);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, bundle.code, { mode: 0o600 });
  renameSync(temp, file);
  return file;
}

/** `$XDG_STATE_HOME/yolo` (default `~/.local/state/yolo`): the user's trust records, config bundles and hook pins. */
export function userStateDir(env: Readonly<Record<string, string | undefined>>): string {
  const base = env.XDG_STATE_HOME?.trim() || join(env.HOME?.trim() || homedir(), ".local", "state");
  return join(base, "yolo");
}

import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
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

/** The entry for `root`, or null (none, or the store unreadable: nothing trusted, the safe reading). */
export function readConfigTrust(store: string, root: string): TrustEntry | null {
  try {
    const value = (JSON.parse(readFileSync(store, "utf8")) as Record<string, Partial<TrustEntry>>)[root];
    if (!value || typeof value.sha256 !== "string") return null;
    return { mcp: null, config: null, inputs: [], trustedAt: "", ...value } as TrustEntry;
  } catch {
    return null;
  }
}

/** Replaces the entry for `root`: written whole to a temp file and renamed, so a crash never leaves half a store. */
export function writeConfigTrust(store: string, root: string, entry: TrustEntry): void {
  let all: Record<string, unknown> = {};
  try {
    const value: unknown = JSON.parse(readFileSync(store, "utf8"));
    if (value && typeof value === "object" && !Array.isArray(value)) all = value as Record<string, unknown>;
  } catch {
    // none yet
  }
  all[root] = entry;
  mkdirSync(dirname(store), { recursive: true, mode: 0o700 });
  const temp = `${store}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, store);
}

/** Writes a bundle as `config-bundles/<sha256>.cjs` beside the store, in a folder only this user can write; its path. */
export function storeBundle(store: string, bundle: ConfigBundle): string {
  const dir = privateCacheDir(join(dirname(store), "config-bundles"));
  if (!dir) throw new ConfigError(`Cannot keep the trusted config in ${join(dirname(store), "config-bundles")}: it must be a folder only you can write.`);
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

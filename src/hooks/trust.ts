import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import type { HooksConfig } from "../config/hooks-schema.js";

/** A project file a hook command names (`./scripts/check.sh`), with the hash of its content when trust was given. */
export interface Pin {
  path: string;
  sha256: string;
}

/** Variables a command may use to name the project, as Claude Code's `$CLAUDE_PROJECT_DIR`. */
const PROJECT_VARS = /\$\{?(YOLO_PROJECT_DIR|CLAUDE_PROJECT_DIR)\}?/g;

/**
 * The project files a hook command names: words that resolve to a file inside the project root. Their content is
 * part of what the user trusts, and is checked again before each run of the hook: an agent that edits the script
 * of a hook (which runs outside its sandbox) gets that hook refused, not run.
 */
export function pinFiles(command: string, root: string): Pin[] {
  const pins: Pin[] = [];
  for (const raw of command.split(/[\s;&|()<>]+/)) {
    const word = raw.replace(/['"]/g, "").replace(PROJECT_VARS, root);
    if (!word.includes("/")) continue;
    const path = isAbsolute(word) ? word : resolve(root, word);
    const rel = relative(root, path);
    if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) continue;
    const sha256 = fileHash(path);
    if (sha256 !== null && !pins.some((p) => p.path === path)) pins.push({ path, sha256 });
  }
  return pins;
}

/** The first pinned file whose content is not what it was (or that is gone), or null. */
export function changedPin(pins: readonly Pin[]): string | null {
  return pins.find((p) => fileHash(p.path) !== p.sha256)?.path ?? null;
}

/** What the user trusts: the repository's `hooks` config and the content of every project file its commands name. */
export function hookSetHash(hooks: HooksConfig, root: string): string {
  const commands = Object.values(hooks).flatMap((groups) => (groups ?? []).flatMap((g) => g.hooks.map((h) => h.command)));
  const pins = commands.flatMap((c) => pinFiles(c, root)).map((p) => `${relative(root, p.path)}:${p.sha256}`);
  return createHash("sha256")
    .update(canonical(hooks))
    .update("\0")
    .update([...new Set(pins)].sort().join("\n"))
    .digest("hex");
}

/** `$XDG_STATE_HOME/yolo/trusted-hooks.json` (XDG_STATE_HOME defaults to `~/.local/state`): the user's, never the project's. */
export function trustStoreFile(env: Readonly<Record<string, string | undefined>>): string {
  const base = env.XDG_STATE_HOME?.trim() || join(env.HOME?.trim() || homedir(), ".local", "state");
  return join(base, "yolo", "trusted-hooks.json");
}

interface TrustEntry {
  sha256: string;
  trustedAt: string;
}

/** True when the user trusted exactly this hook set for this project root. */
export function isTrusted(storeFile: string, root: string, hash: string): boolean {
  return readStore(storeFile)[root]?.sha256 === hash;
}

/** Records the user's consent to this hook set for this project root (replacing an older one). */
export function trustHooks(storeFile: string, root: string, hash: string, now = new Date()): void {
  const store = readStore(storeFile);
  store[root] = { sha256: hash, trustedAt: now.toISOString() };
  writeStore(storeFile, store);
}

/** Withdraws consent for this project root; true when there was one. */
export function untrustHooks(storeFile: string, root: string): boolean {
  const store = readStore(storeFile);
  if (!store[root]) return false;
  delete store[root];
  writeStore(storeFile, store);
  return true;
}

function readStore(file: string): Record<string, TrustEntry> {
  try {
    const value: unknown = JSON.parse(readFileSync(file, "utf8"));
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, TrustEntry>) : {};
  } catch {
    // Missing or unreadable: nothing is trusted, which is the safe reading.
    return {};
  }
}

// Written whole to a temp file and renamed, so a crash never leaves half a store (which would read as nothing trusted).
function writeStore(file: string, store: Record<string, TrustEntry>): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, file);
}

function fileHash(path: string): string | null {
  try {
    if (!statSync(path).isFile()) return null;
    return createHash("sha256").update(readFileSync(path)).digest("hex");
  } catch {
    return null;
  }
}

// JSON with sorted keys: the same config written in another key order is the same hook set.
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

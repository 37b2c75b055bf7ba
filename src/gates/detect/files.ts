import fs from "node:fs";
import path from "node:path";
import type { GateConfig } from "../schema.js";

/** Default time a detected gate may run, as for configured gates. */
export const DEFAULT_GATE_TIMEOUT_S = 600;

/** What one ecosystem's detector found: its test gate (if any) and optional lint/type-check gates. */
export interface EcosystemGates {
  /** Short ecosystem id (`npm`, `go`, …), used to name gates when several ecosystems share a repository. */
  ecosystem: string;
  test: GateConfig | null;
  checks: GateConfig[];
}

/** Inspects one ecosystem's files under `root`; null when the repository is not of that ecosystem. */
export type Detector = (root: string) => EcosystemGates | null;

/** A required test gate. */
export function testGate(command: string, reports?: string[]): GateConfig {
  return { name: "test", command, required: true, timeoutS: DEFAULT_GATE_TIMEOUT_S, ...(reports ? { reports } : {}) };
}

/**
 * A lint or type-check gate, judged by its findings against the baseline (`baseline: "findings"`): a lint the project
 * left red is not the task, but a finding the change added blocks. Optional, so a lint that cannot start or has no
 * config never stops a run at the baseline.
 */
export function checkGate(name: string, command: string): GateConfig {
  return { name, command, required: false, timeoutS: DEFAULT_GATE_TIMEOUT_S, baseline: "findings" };
}

export function exists(root: string, rel: string): boolean {
  try {
    fs.statSync(path.join(root, rel));
    return true;
  } catch {
    return false;
  }
}

/** A small text file's content; null when missing, unreadable or larger than 1 MB (a manifest is never that big). */
export function readText(root: string, rel: string): string | null {
  try {
    const file = path.join(root, rel);
    if (fs.statSync(file).size > 1024 * 1024) return null;
    return fs.readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/** A JSON object file, or null when missing, broken or not an object. */
export function readJsonObject(root: string, rel: string): Record<string, unknown> | null {
  const text = readText(root, rel);
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Names in one folder (sorted), empty when it cannot be read. */
export function listDir(root: string, rel: string): fs.Dirent[] {
  try {
    return fs.readdirSync(path.join(root, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  } catch {
    return [];
  }
}

const SKIP_DIRS = new Set(["node_modules", "vendor", "target", "build", "dist", "testdata", "__pycache__"]);

/**
 * Folders (relative, POSIX) up to `depth` levels below root holding a file named `name`, root excluded;
 * hidden and dependency folders are skipped and at most 200 folders are visited, so a huge tree stays cheap.
 */
export function foldersWith(root: string, name: string, depth: number): string[] {
  const found: string[] = [];
  let visited = 0;
  const walk = (rel: string, level: number) => {
    if (level > depth || visited++ > 200) return;
    for (const entry of listDir(root, rel)) {
      if (!entry.isDirectory() || entry.name.startsWith(".") || SKIP_DIRS.has(entry.name)) continue;
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (exists(root, `${child}/${name}`)) found.push(child);
      walk(child, level + 1);
    }
  };
  walk("", 1);
  return found;
}

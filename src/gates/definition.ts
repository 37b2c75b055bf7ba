import { createHash } from "node:crypto";
import { type Dirent, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { packageJsonText } from "./package-json.js";
import type { GateConfig } from "./schema.js";
import { fileStamp, nowNs, settled } from "../fs/file-stamp.js";
import { dependencyChanges, dependencyStamps } from "./dependency-stamps.js";
import {
  isTestFile,
  NARROWING_MARKERS,
  NOT_TEST_DIRS,
  PACKAGE_JSON_RESOLUTION_KEYS,
  PACKAGE_JSON_RUNNER_KEYS,
  relevantPart,
  runnerConfigFor,
} from "./definition-patterns.js";

/** One test file as recorded: its content hash, whether it still declares tests, and its narrowing markers. */
export interface TestFileRecord {
  hash: string;
  /** Test declarations found (`test(`, `it(`, `def test_`, `func Test`…): 0 in a file that had some means it was emptied. */
  cases: number;
  /** Count of each narrowing marker (`.only`, `.skip`…) present. */
  markers: Record<string, number>;
}

/**
 * What defines the gates of a thread, recorded before any agent changes a file: each gate's command and the
 * package scripts it runs, the runners' config files (hashes of the parts that configure tests), and the test
 * files with their hashes. Compared with the project later, it names what an agent changed.
 */
export interface GateDefinition {
  gates: Array<{ name: string; command: string; scripts: Record<string, string> }>;
  configs: Record<string, string>;
  testFiles: Record<string, TestFileRecord>;
  /** True when the walk stopped at MAX_FILES: files beyond it are not compared. */
  truncated: boolean;
  /** A stamp of each installed package (dependency-stamps.ts); absent in records from before they were compared. */
  dependencies?: Record<string, string>;
}

const MAX_FILES = 20_000;
const MAX_TEST_FILE_BYTES = 2_000_000;
const CASE = /\b(?:it|test|describe|suite)(?:\.each\b[^(]*)?\s*\(|\bdef test_|\bfunc Test|#\[test\]|@Test\b|@pytest\.mark\.parametrize/g;

// `npm run x`, `npm run-script x`, `npm test`, `npm t`, `yarn [run] x`, `pnpm [run] x`, `bun run x`: the scripts a command line runs.
const SCRIPT_CALL =
  /\b(?:npm|pnpm|yarn|bun)(?:\s+--?[\w-]+(?:=\S+)?)*\s+(?:run(?:-script)?\s+([\w:.@/-]+)|(test|t|start)\b|(?!install|add|remove|exec|dlx|x\b)([\w:.-]+))/g;

/** The package scripts `command` runs, following `npm run x` chains and pre/post scripts, with their text. */
export function scriptsRun(command: string, scripts: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (text: string, depth: number) => {
    if (depth > 10) return;
    for (const m of text.matchAll(SCRIPT_CALL)) {
      const raw = m[1] ?? m[2] ?? m[3];
      const name = raw === "t" ? "test" : raw;
      if (!name) continue;
      for (const n of [`pre${name}`, name, `post${name}`]) {
        if (n in out || typeof scripts[n] !== "string") continue;
        out[n] = scripts[n];
        visit(scripts[n], depth + 1);
      }
    }
  };
  visit(command, 0);
  return out;
}

/** Reads package.json's scripts and runner keys; a missing or broken file gives empty ones. */
function readPackage(root: string): { scripts: Record<string, string>; keys: Record<string, unknown> } {
  try {
    const pkg = JSON.parse(packageJsonText(root)) as Record<string, unknown>;
    const scripts = Object.fromEntries(Object.entries((pkg.scripts as Record<string, unknown>) ?? {}).filter(([, v]) => typeof v === "string")) as Record<
      string,
      string
    >;
    const keys = Object.fromEntries([...PACKAGE_JSON_RUNNER_KEYS, ...PACKAGE_JSON_RESOLUTION_KEYS].filter((k) => pkg[k] !== undefined).map((k) => [k, pkg[k]]));
    return { scripts, keys };
  } catch {
    return { scripts: {}, keys: {} };
  }
}

/** The scripts of the project's package.json (none when it is missing or broken). */
export function packageScripts(root: string): Record<string, string> {
  return readPackage(root).scripts;
}

const sha = (text: string | Buffer) => createHash("sha256").update(text).digest("hex").slice(0, 16);

/** Reads the project and records what defines `gates` (see GateDefinition). */
export async function resolveGateDefinition(root: string, gates: GateConfig[], skipDirs: string[] = []): Promise<GateDefinition> {
  const pkg = readPackage(root);
  const configs: Record<string, string> = {};
  for (const [key, value] of Object.entries(pkg.keys)) configs[`package.json#${key}`] = sha(JSON.stringify(value));
  const testFiles: Record<string, TestFileRecord> = {};
  const skip = new Set(skipDirs.map((d) => path.resolve(d)));
  let seen = 0;
  let truncated = false;
  const slice = readSlices();
  const startedNs = nowNs();
  for (const rel of await listFiles(root, skip, slice, MAX_FILES + 1)) {
    if (++seen > MAX_FILES) {
      truncated = true;
      break;
    }
    const config = runnerConfigFor(rel);
    if (config) {
      const text = readText(path.join(root, rel));
      if (text !== null) {
        const part = relevantPart(text, config.section);
        if (!config.section || part.trim()) configs[rel] = sha(part);
      }
      await slice.read();
    }
    if (isTestFile(rel)) {
      const file = path.join(root, rel);
      const stamp = fileStamp(file);
      const known = stamp ? testFileRecords.get(file) : undefined;
      if (stamp && known?.key === stamp.key) {
        testFiles[rel] = known.record;
        continue;
      }
      testFiles[rel] = recordTestFile(file);
      if (stamp && settled(stamp, startedNs)) rememberRecord(file, stamp.key, testFiles[rel]);
      await slice.read();
    }
  }
  const resolution = tsconfigResolution(root);
  if (resolution !== null) configs["tsconfig.json#paths"] = sha(resolution);
  return {
    gates: gates.map((g) => ({ name: g.name, command: g.command, scripts: scriptsRun(g.command, pkg.scripts) })),
    configs,
    testFiles,
    truncated,
    dependencies: dependencyStamps(root),
  };
}

/**
 * Test files recorded before, by path, with the stamp they had then (src/fs/file-stamp.ts): every gate check
 * records the whole project again, and a file whose stamp has not moved is the one that was read (a change, by a
 * model's command too, moves its change time). Files changed within a timestamp tick of the read are not kept.
 */
const testFileRecords = new Map<string, { key: string; record: TestFileRecord }>();
const MAX_REMEMBERED = 2 * MAX_FILES;

function rememberRecord(file: string, key: string, record: TestFileRecord): void {
  testFileRecords.delete(file);
  testFileRecords.set(file, { key, record });
  // Oldest first: a long-lived process (the server) working on many projects keeps only the latest.
  if (testFileRecords.size > MAX_REMEMBERED) testFileRecords.delete(testFileRecords.keys().next().value as string);
}

function recordTestFile(file: string): TestFileRecord {
  const text = readText(file) ?? "";
  const markers: Record<string, number> = {};
  for (const { label, pattern } of NARROWING_MARKERS) {
    const n = [...text.matchAll(pattern)].length;
    if (n) markers[label] = n;
  }
  return { hash: sha(text), cases: [...text.matchAll(CASE)].length, markers };
}

function readText(file: string): string | null {
  try {
    const stat = statSync(file);
    if (!stat.isFile() || stat.size > MAX_TEST_FILE_BYTES) return null;
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/** Reads between two turns of the event loop. */
const READS_PER_SLICE = 200;

/**
 * The walk reads synchronously (this runs at every gate check: for a small project a listing or a file read costs
 * microseconds, a thread-pool round trip more) and gives the event loop a turn every READS_PER_SLICE reads, so a
 * large tree does not stall the live view or a stop.
 */
function readSlices(): { read(): Promise<void> } {
  let reads = 0;
  return {
    read: () => (++reads % READS_PER_SLICE === 0 ? new Promise((resolve) => setImmediate(resolve)) : Promise.resolve()),
  };
}

// Every file under the root (up to `limit`), in path order, skipping dependency and build folders and yolo's own;
// symlinked folders are not followed. Listed synchronously, with the event loop's turn of readSlices per folder.
async function listFiles(root: string, skip: Set<string>, slice: { read(): Promise<void> }, limit: number): Promise<string[]> {
  const files: string[] = [];
  const visit = async (rel: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = readdirSync(path.join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    await slice.read();
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (files.length >= limit) return;
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (NOT_TEST_DIRS.has(entry.name) || skip.has(path.join(root, child))) continue;
        await visit(child);
      } else if (entry.isFile()) {
        files.push(child);
      }
    }
  };
  await visit("");
  return files;
}

const clip = (s: string) => JSON.stringify(s.length > 80 ? `${s.slice(0, 79)}…` : s);

/**
 * What changed in what defines the gates, in words, one change per entry; empty when nothing did. Added test
 * files and edits that keep a file's tests are not changes: an agent may add tests and change code under test.
 */
export function diffGateDefinition(before: GateDefinition, now: GateDefinition): string[] {
  const changes: string[] = [];
  for (const gate of before.gates) {
    const current = now.gates.find((g) => g.name === gate.name);
    if (!current) {
      changes.push(`gate ${gate.name} was removed`);
      continue;
    }
    if (current.command !== gate.command) changes.push(`gate ${gate.name}: command changed from ${clip(gate.command)} to ${clip(current.command)}`);
    for (const [name, text] of Object.entries(gate.scripts)) {
      const after = current.scripts[name];
      if (after === undefined) changes.push(`package.json scripts.${name} was removed (was ${clip(text)})`);
      else if (after !== text) changes.push(`package.json scripts.${name} changed from ${clip(text)} to ${clip(after)}`);
    }
    for (const [name, text] of Object.entries(current.scripts)) {
      if (!(name in gate.scripts)) changes.push(`package.json scripts.${name} now runs as part of gate ${gate.name}: ${clip(text)}`);
    }
  }
  for (const [file, hash] of Object.entries(before.configs)) {
    if (!(file in now.configs)) changes.push(`${configLabel(file)} ${file} was removed`);
    else if (now.configs[file] !== hash) changes.push(`${configLabel(file)} ${file} was changed`);
  }
  for (const file of Object.keys(now.configs)) {
    if (!(file in before.configs)) changes.push(`${configLabel(file)} ${file} was added`);
  }
  changes.push(...dependencyChanges(before.dependencies, now.dependencies));
  for (const [file, rec] of Object.entries(before.testFiles)) {
    const after = now.testFiles[file];
    if (!after) {
      if (!now.truncated) changes.push(`test file ${file} was deleted`);
      continue;
    }
    if (rec.cases > 0 && after.cases === 0) changes.push(`test file ${file} was emptied (no tests left in it)`);
    changes.push(...markerChanges(file, rec.markers, after.markers));
  }
  for (const [file, rec] of Object.entries(now.testFiles)) {
    if (!(file in before.testFiles)) changes.push(...markerChanges(file, {}, rec.markers));
  }
  return changes;
}

// What a recorded config is, in words: where the tests' imports resolve to, or a runner's config.
function configLabel(file: string): string {
  return MODULE_RESOLUTION.has(file) ? "module resolution" : "test runner config";
}

const MODULE_RESOLUTION = new Set([...PACKAGE_JSON_RESOLUTION_KEYS.map((k) => `package.json#${k}`), "tsconfig.json#paths"]);

/**
 * The part of tsconfig.json that decides where imports resolve (`baseUrl`, `paths`, `rootDirs`), as text; the whole
 * file when it cannot be parsed (comments are allowed there), null when there is none.
 */
function tsconfigResolution(root: string): string | null {
  const text = readText(path.join(root, "tsconfig.json"));
  if (text === null) return null;
  try {
    const json = JSON.parse(
      text
        .replace(/^\s*\/\/.*$/gm, "")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/,(\s*[}\]])/g, "$1"),
    ) as {
      compilerOptions?: Record<string, unknown>;
    };
    const o = json.compilerOptions ?? {};
    return JSON.stringify([o.baseUrl ?? null, o.paths ?? null, o.rootDirs ?? null]);
  } catch {
    return text;
  }
}

function markerChanges(file: string, before: Record<string, number>, after: Record<string, number>): string[] {
  return Object.entries(after)
    .filter(([label, n]) => n > (before[label] ?? 0))
    .map(([label, n]) => `${label} added in test file ${file} (${before[label] ?? 0} → ${n})`);
}

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { GateConfig } from "../config/schema.js";
import { runnerConfigFor } from "../gates/definition-patterns.js";
import { importGraph } from "./import-graph.js";
import { narrowedNodeTest, nodeRunsFile, nodeTestPaths, ownPackageName } from "./node-test-files.js";

/**
 * The keys a history build carries a test file's results by, from one tree to the next (carried-suite.ts). Each
 * file `node --test` runs is a process of its own, so what it reports depends only on its own bytes, the bytes of its
 * static import closure (import-graph.ts), the runner's command, config files and environment, node itself and the
 * installed dependencies: the key is a hash of those. A test whose closure starts processes or reads files by path gets no key (it is run on every tree); a
 * tree whose imports cannot be told statically, or a runner that loads files no import names, gets none at all.
 */
export type TestFileKeys = { ok: true; gates: KeyedGate[] } | { ok: false; reason: string };

/** One required gate's test files: each keyed, or run every time with the reason. */
export interface KeyedGate {
  gate: GateConfig;
  keys: Map<string, string>;
  unkeyed: Map<string, string>;
}

export interface KeyInput {
  dir: string;
  /** The tree's files (project-relative). */
  files: string[];
  gates: GateConfig[];
  env: NodeJS.ProcessEnv;
  /** The `node` the gates run and the installed dependencies (carried-results.ts): part of every key. */
  runtime: string;
}

// Files node, npm or a tool reads by name, whatever imports: a change to one may change any test's result.
const RUN_CONFIG =
  /^(package\.json|package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|\.npmrc|\.nvmrc|\.node-version|\.babelrc|[tj]sconfig[^/]*\.json)$/;

/** Every required gate's test files with their keys (see TestFileKeys). */
export function testFileKeys(input: KeyInput): TestFileKeys {
  const required = input.gates.filter((g) => g.required);
  const paths = required.map((g) => nodeTestPaths(g, input.dir));
  if (!required.length || paths.some((p) => p === null))
    return { ok: false, reason: "a required gate is not `node --test <paths>` (other runners load files no import names)" };
  if (/--(?:import|require|loader|experimental-loader)\b|(?:^|\s)-r\s/.test(input.env.NODE_OPTIONS ?? ""))
    return { ok: false, reason: "NODE_OPTIONS preloads a module into every test" };
  const read = (f: string) => readFileSync(join(input.dir, f), "utf8");
  const graph = importGraph(input.files, read, new Set(input.files), ownPackageName(input.dir));
  if (!graph.ok) return graph;
  const hashes = new Map<string, string>();
  const hashOf = (f: string) => hashes.get(f) ?? (hashes.set(f, sha(readFileSync(join(input.dir, f)))), hashes.get(f) as string);
  const config = input.files.filter((f) => RUN_CONFIG.test(basename(f)) || runnerConfigFor(f)).sort();
  const env = Object.entries(input.env).sort(([a], [b]) => a.localeCompare(b));
  const shared = [input.runtime, JSON.stringify(env), ...config.map((f) => `${f}:${hashOf(f)}`)].join("\n");
  const gates = required.map((gate, i): KeyedGate => {
    const keys = new Map<string, string>();
    const unkeyed = new Map<string, string>();
    for (const file of input.files.filter((f) => nodeRunsFile(paths[i] as string[], f))) {
      const closure = closureOf(graph.edges, file);
      const spawner = closure.find((f) => graph.spawners.has(f));
      const reader = closure.find((f) => graph.readers.has(f));
      if (spawner) unkeyed.set(file, `${spawner} starts processes, which may run any of the project's code`);
      else if (reader) unkeyed.set(file, `${reader} reads files or loads code by path, which no import names`);
      else keys.set(file, sha(`${shared}\n${JSON.stringify(runAlone(gate, file))}\n${closure.map((f) => `${f}:${hashOf(f)}`).join("\n")}`));
    }
    return { gate, keys, unkeyed };
  });
  return { ok: true, gates };
}

// What runs the file alone: its gate's name (in each test's id), environment and command.
function runAlone(gate: GateConfig, file: string): unknown[] {
  return [gate.name, gate.env ?? null, narrowedNodeTest(gate, [file]).command];
}

// The file and every file it imports, directly or through others, sorted.
function closureOf(edges: Map<string, string[]>, file: string): string[] {
  const seen = new Set([file]);
  const queue = [file];
  while (queue.length) for (const to of edges.get(queue.pop() as string) ?? []) if (!seen.has(to)) queue.push((seen.add(to), to));
  return [...seen].sort();
}

function sha(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

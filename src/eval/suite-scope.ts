import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { GateConfig } from "../config/schema.js";
import { runnerConfigFor } from "../gates/definition-patterns.js";
import { type ImportGraph, importGraph, isCodeFile } from "./import-graph.js";
import { narrowedNodeTest, nodeRunsFile, nodeTestPaths, ownPackageName } from "./node-test-files.js";

/**
 * Which tests need running on a tree that differs from one whose results are known only in some files (`changed`
 * and `testFiles`): the judge's hidden tests (judge-scope.ts). A test that is not one of `testFiles` and reaches none
 * of the changed files through its static imports (import-graph.ts) gives the known result; the rest run, narrowed
 * to their files. Anything that breaks that reasoning (processes, files read by path, computed imports) makes the
 * whole suite run instead, with the reason.
 */
export type SuiteScope = { narrowed: true; files: string[]; gates: GateConfig[] } | { narrowed: false; reason: string };

/** What the scope is decided from: the worktree at the parent with the commit's tests, and the commit's changes. */
export interface ScopeInput {
  dir: string;
  /** The tree's files at the parent with the commit's tests (project-relative). */
  files: string[];
  /** The commit's files other than its tests, each with its text at the commit (null: deleted by it). */
  changed: Map<string, string | null>;
  testFiles: string[];
  gates: GateConfig[];
  env: NodeJS.ProcessEnv;
}

// Documentation no test reads (the history scan leaves these out of a commit's source too).
const DOC_FILE = /(^|\/)(README|CHANGELOG|CHANGES|LICENSE|NOTICE|AUTHORS)[^/]*$|\.(md|rst|adoc)$/i;
// JSON Node or a tool reads by its name rather than because the code imports it.
const CONFIG_JSON = /^(package|package-lock|npm-shrinkwrap|\.babelrc|[tj]sconfig[^/]*)\.json$/;

/** The scope of the parent's run (see SuiteScope). */
export function suiteScope(input: ScopeInput): SuiteScope {
  const whole = (reason: string): SuiteScope => ({ narrowed: false, reason });
  const required = input.gates.filter((g) => g.required);
  const paths = required.map((g) => nodeTestPaths(g, input.dir));
  if (!required.length || paths.some((p) => p === null)) return whole("a required gate is not `node --test <paths>` (other runners are not narrowed)");
  if (/--(?:import|require|loader|experimental-loader)\b|(?:^|\s)-r\s/.test(input.env.NODE_OPTIONS ?? ""))
    return whole("NODE_OPTIONS preloads a module into every test");
  const unsure = [...input.changed.keys()].find(
    (f) => !DOC_FILE.test(f) && (!isCodeFile(f) || runnerConfigFor(f)) && !(f.endsWith(".json") && !CONFIG_JSON.test(basename(f))),
  );
  if (unsure) return whole(`the commit changes ${unsure}, which a test may read without importing it`);
  const graph = bothEnds(input);
  if (!graph.ok) return whole(graph.reason);
  const runs = (f: string) => paths.some((p) => nodeRunsFile(p as string[], f));
  const runnable = input.files.filter(runs);
  // A file Node runs as a test that the commit changes outside its test files: at one end it may not exist at all.
  const runAsTest = [...input.changed.keys()].find(runs);
  if (runAsTest) return whole(`the commit changes ${runAsTest}, which the suite runs as a test file`);
  const roots = new Set([...input.changed.keys(), ...input.testFiles]);
  const affected = reaching(graph.edges, roots);
  const unread = [...input.changed.keys()].find((f) => !DOC_FILE.test(f) && !runnable.some((t) => t !== f && reaching(graph.edges, new Set([f])).has(t)));
  if (unread) return whole(`no test imports ${unread}: it may be run or read another way`);
  const files = runnable.filter((f) => affected.has(f));
  const spawning = reaching(graph.edges, graph.spawners);
  const spawner = runnable.find((f) => !affected.has(f) && spawning.has(f));
  if (spawner) return whole(`${spawner} starts processes, which may run the changed code`);
  // A test outside the reach that reads files by path may read a changed or hidden one (a fixture no import names).
  const reading = reaching(graph.edges, graph.readers);
  const reader = runnable.find((f) => !affected.has(f) && reading.has(f));
  if (reader) return whole(`${reader} reads files by path, which may be ones the change or the hidden tests hold`);
  if (!files.length) return whole("none of the commit's tests is a file the suite runs");
  if (files.length === runnable.length) return whole("every test file reaches the change");
  return { narrowed: true, files, gates: required.map((g) => narrowedNodeTest(g, files)) };
}

// One graph for both ends: the tree's files as they are at the parent, and the changed ones as the commit has them.
function bothEnds(input: ScopeInput): ImportGraph {
  const known = new Set([...input.files, ...input.changed.keys()]);
  const own = ownPackageName(input.dir);
  const parent = importGraph(input.files, (f) => readFileSync(join(input.dir, f), "utf8"), known, own);
  if (!parent.ok) return parent;
  const atCommit = [...input.changed].filter(([f, text]) => text !== null && isCodeFile(f));
  const commit = importGraph(
    atCommit.map(([f]) => f),
    (f) => input.changed.get(f) ?? "",
    known,
    own,
  );
  if (!commit.ok) return commit;
  const edges = new Map(parent.edges);
  for (const [f, to] of commit.edges) edges.set(f, [...new Set([...(edges.get(f) ?? []), ...to])]);
  return { ok: true, edges, spawners: new Set([...parent.spawners, ...commit.spawners]), readers: new Set([...parent.readers, ...commit.readers]) };
}

/** Every file that is one of `roots` or imports one, directly or through others. */
function reaching(edges: Map<string, string[]>, roots: Set<string>): Set<string> {
  const importers = new Map<string, string[]>();
  for (const [from, tos] of edges) for (const to of tos) importers.set(to, [...(importers.get(to) ?? []), from]);
  const seen = new Set(roots);
  const queue = [...roots];
  while (queue.length) for (const from of importers.get(queue.pop() as string) ?? []) if (!seen.has(from)) queue.push((seen.add(from), from));
  return seen;
}

import { join } from "node:path";
import type { GateConfig } from "../config/schema.js";
import type { TestStatus } from "../gates/parsers/types.js";
import type { CarriedResults } from "./carried-results.js";
import { narrowedNodeTest } from "./node-test-files.js";
import { runOneGate, type SuiteSettings } from "./suite.js";
import { type KeyedGate, testFileKeys } from "./test-file-keys.js";
import { worktreeFiles } from "./worktree.js";

type Tests = Map<string, TestStatus>;

/** The suite's results on a tree, and which test files ran there (the others' results were carried). */
export type CarriedRun = { ok: true; tests: Tests; ran: string[]; carried: string[] } | { ok: false; reason: string };

/**
 * The required gates' results on the tree in `dir` as a whole-suite run would give them, running only what no
 * earlier tree of the build answered: each test file whose key (test-file-keys.ts) has a recorded result is carried,
 * each keyed file without one runs alone (node names no file in a test's id, so its tests are known to be its own
 * only that way), and the files with no key run together, every time. Not ok (the caller runs the whole suite) when
 * the tree has no keys, or a run could not be read.
 */
export async function carriedSuite(dir: string, gates: GateConfig[], logDir: string, settings: SuiteSettings, store: CarriedResults): Promise<CarriedRun> {
  const keyed = testFileKeys({ dir, files: await worktreeFiles(dir), gates, env: settings.env, runtime: store.runtime });
  if (!keyed.ok) return keyed;
  const tests: Tests = new Map();
  const ran: string[] = [];
  const carried: string[] = [];
  for (const k of keyed.gates) {
    const own = await gateResults(dir, k, logDir, settings, store, ran, carried);
    if (typeof own === "string") return { ok: false, reason: own };
    for (const [id, status] of own) tests.set(`${k.gate.name}: ${id}`, status);
  }
  if (!tests.size) return { ok: false, reason: "the carried run listed no tests" };
  return { ok: true, tests, ran, carried };
}

// One gate's tests on the tree: carried, run file by file, and the unkeyed files run together; or why not.
async function gateResults(
  dir: string,
  k: KeyedGate,
  logDir: string,
  settings: SuiteSettings,
  store: CarriedResults,
  ran: string[],
  carried: string[],
): Promise<Tests | string> {
  const files = [...k.keys].sort(([a], [b]) => a.localeCompare(b));
  const pending = files.map(([file, key]) => {
    const known = store.results.get(key);
    if (known) return (carried.push(file), known);
    ran.push(file);
    const run = store.slot(() => fileTests(dir, narrowedNodeTest(k.gate, [file]), join(logDir, "files"), settings, `-${safeName(file)}`));
    store.results.set(key, run);
    // A run that gave no results is not kept: the next tree with this key runs the file again.
    const forget = () => store.results.get(key) === run && store.results.delete(key);
    void run.then((r) => typeof r === "string" && forget(), forget);
    return run;
  });
  const unkeyed = [...k.unkeyed.keys()].sort();
  ran.push(...unkeyed);
  if (unkeyed.length) pending.push(store.slot(() => fileTests(dir, narrowedNodeTest(k.gate, unkeyed), join(logDir, "unkeyed"), settings, "")));
  const tests: Tests = new Map();
  for (const r of await Promise.all(pending)) {
    if (typeof r === "string") return r;
    for (const [id, status] of r) tests.set(id, status);
  }
  return tests;
}

// The tests of one narrowed run by id (a run of files holding no test, exiting 0, has none); or why it gave none.
async function fileTests(dir: string, gate: GateConfig, logDir: string, settings: SuiteSettings, logSuffix: string): Promise<Tests | string> {
  const run = await runOneGate(dir, gate, logDir, settings, logSuffix);
  if (!run) return "the build was stopped";
  if (run.result.timedOut) return `${gate.command} timed out after ${run.result.durationMs} ms`;
  if (!run.tests?.length && run.result.exitCode !== 0)
    return `${gate.command} listed no tests (exit code ${run.result.exitCode}); see ${run.result.logFile ?? "its output"}`;
  return new Map((run.tests ?? []).map((t) => [t.id, t.status]));
}

function safeName(file: string): string {
  return file.replace(/[^A-Za-z0-9._-]+/g, "-");
}

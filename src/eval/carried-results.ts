import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { TestStatus } from "../gates/parsers/types.js";

type Tests = Map<string, TestStatus>;

/**
 * The test files' results a history build carries from tree to tree, by key (test-file-keys.ts): shared by the
 * build's workers (a run in flight is shared too, so two never run the same key), and kept in the build's own folder
 * for the next build (`carried-results.json`, beside its scratch worktrees under `.yolo/eval/work/`, where no agent
 * writes). A result that is a string is why the run gave none.
 */
export interface CarriedResults {
  results: Map<string, Promise<Tests | string>>;
  /** What every key includes beside the tree: the `node` the gates run and the installed dependencies. */
  runtime: string;
  /** Runs `f` when one of the build's slots for test-file runs is free. */
  slot<T>(f: () => Promise<T>): Promise<T>;
}

const VERSION = 1;
// Enough for a few builds of a large suite; the oldest results go first.
const MAX_KEPT = 50_000;
// What the package managers write into node_modules when they install: a changed install changes every key.
const INSTALL_MARKS = [".package-lock.json", ".yarn-integrity", ".modules.yaml", ".yarn-state.yml"];

/** The store of a build in `root` whose gates run with `env`, with what `file` kept from earlier builds. */
export function openCarriedResults(root: string, env: NodeJS.ProcessEnv, file: string, slots: number): CarriedResults {
  const results = new Map<string, Promise<Tests | string>>();
  for (const [key, tests] of readKept(file)) results.set(key, Promise.resolve(tests));
  return { results, runtime: runtimeOf(root, env), slot: limiter(Math.max(1, slots)) };
}

/** Writes the store's results (those that finished with tests) for the next build; a failed write only loses them. */
export async function keepCarriedResults(store: CarriedResults, file: string): Promise<void> {
  const kept: [string, [string, TestStatus][]][] = [];
  for (const [key, run] of store.results) {
    const r = await run.catch(() => "failed");
    if (typeof r !== "string") kept.push([key, [...r]]);
  }
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(`${file}.tmp`, JSON.stringify({ v: VERSION, results: kept.slice(-MAX_KEPT) }));
    renameSync(`${file}.tmp`, file);
  } catch {
    // The next build runs those files again.
  }
}

function readKept(file: string): [string, Tests][] {
  try {
    const data = JSON.parse(readFileSync(file, "utf8")) as { v?: number; results?: [string, [string, TestStatus][]][] };
    if (data.v !== VERSION || !Array.isArray(data.results)) return [];
    return data.results.map(([key, tests]) => [key, new Map(tests)]);
  } catch {
    return [];
  }
}

// `node --version` as the gates find it on PATH, and the dependencies' install marks.
function runtimeOf(root: string, env: NodeJS.ProcessEnv): string {
  const hash = createHash("sha256");
  try {
    hash.update(execFileSync("node", ["--version"], { env, encoding: "utf8", timeout: 30_000 }));
  } catch {
    hash.update(`unknown node ${Math.random()}`);
  }
  for (const mark of INSTALL_MARKS) {
    try {
      hash.update(`${mark}\0`).update(readFileSync(join(root, "node_modules", mark)));
    } catch {
      // Not this package manager.
    }
  }
  return hash.digest("hex");
}

// At most `n` of the functions given run at a time; the others wait their turn in order.
function limiter(n: number): <T>(f: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (f) => {
    if (active < n) active++;
    else await new Promise<void>((go) => waiting.push(go));
    try {
      return await f();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

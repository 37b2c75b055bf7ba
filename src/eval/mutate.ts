import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "../errors.js";
import { isTestFile, NOT_TEST_DIRS, runnerConfigFor } from "../gates/definition-patterns.js";
import { splitKillers } from "./mutant-split.js";
import { pythonMutationSites } from "./mutate-python.js";
import { applySite, type MutationSite, mutationSites, type Ts } from "./mutation-sites.js";
import { buildFromSites, type CandidateOptions, commitCandidate, type Trial } from "./site-candidates.js";
import { TASK_VERSION, type DiscardedCandidate, type EvalTask } from "./types.js";
import { worktreeFiles } from "./worktree.js";

/** What building mutants needs: the candidates' options, with mutation sites. */
export type MutateOptions = CandidateOptions<MutationSite>;

const SOURCE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const PYTHON = /\.py$/;
/** Python files that are the project's tooling, not its code: a bug injected there is no task. */
const PYTHON_NOT_SOURCE = new Set(["conftest.py", "setup.py", "noxfile.py"]);

/**
 * Builds tasks by mutation (SWE-smith's idea): single bugs injected into the project's source at HEAD, found with
 * TypeScript's parser for JS/TS and python3's own ast module for Python (src/eval/mutate-python.ts); a mutant is kept when at least one test that passes at HEAD fails with it. Each kept mutant is
 * committed (detached, kept by `refs/yolo-eval/mutants/<id>`) so a task starts from it like a history task from a parent.
 */
export async function buildMutants(opts: MutateOptions): Promise<{ tasks: EvalTask[]; discarded: DiscardedCandidate[] }> {
  const ts = await loadTypeScript();
  return buildFromSites<MutationSite>(opts, {
    noun: "mutants",
    folder: "mutate",
    logs: { base: "mutate-base", each: "mutant" },
    // Sites tried per mutant asked for, at most: most sites break some test, so this bounds the suite runs.
    triesPer: 6,
    sites: async ({ dir, head, env, discarded }) => {
      const found = await allSites(ts, dir, env);
      for (const s of found.skipped)
        discarded.push({ commit: head, subject: s.file, reason: `Python's parser cannot read it, so it has no mutation sites: ${s.reason}` });
      return interleaveByKind(found.sites, head);
    },
    edit: applySite,
    unseen: "no test fails with it (a mutant the tests do not see)",
    keep: keepMutant,
  });
}

/** TypeScript's compiler API, loaded at run time (only mutation and canaries need it). */
export async function loadTypeScript(): Promise<Ts> {
  try {
    const mod = (await import("typescript")) as unknown as Ts & { default?: Ts };
    return mod.default ?? mod;
  } catch (error) {
    throw new ConfigError(`Mutation needs the typescript package (its parser finds the mutation sites), which cannot be loaded: ${(error as Error).message}`);
  }
}

// Every site of every JS/TS and Python source file (not tests, configs, declarations or dependencies); Python's are
// found by python3's own ast module, started only when there is Python source.
async function allSites(ts: Ts, dir: string, env: NodeJS.ProcessEnv) {
  const files = (await worktreeFiles(dir)).filter(
    (f) => !f.endsWith(".d.ts") && !isTestFile(f) && !runnerConfigFor(f) && !f.split("/").some((p) => NOT_TEST_DIRS.has(p)),
  );
  const jsSites = files.filter((f) => SOURCE.test(f)).flatMap((f) => mutationSites(ts, f, readFileSync(join(dir, f), "utf8")));
  const python = files.filter((f) => PYTHON.test(f) && !PYTHON_NOT_SOURCE.has(f.split("/").pop() as string));
  const py = await pythonMutationSites(
    python.map((file) => ({ file, text: readFileSync(join(dir, file), "utf8") })),
    { env },
  );
  return { sites: [...jsSites, ...py.sites], skipped: py.skipped };
}

// A deterministic order (seeded by HEAD) that takes the kinds in turn, so a few mutants are not all of one kind.
function interleaveByKind(sites: MutationSite[], seed: string): MutationSite[] {
  const random = seeded(seed);
  const byKind = new Map<string, MutationSite[]>();
  for (const s of sites) byKind.set(s.kind, [...(byKind.get(s.kind) ?? []), s]);
  const queues = [...byKind.values()].map((q) => shuffle(q, random));
  const out: MutationSite[] = [];
  while (queues.some((q) => q.length)) for (const q of queues) if (q.length) out.push(q.shift() as MutationSite);
  return out;
}

function seeded(seed: string): () => number {
  let x = Number.parseInt(seed.slice(0, 8), 16) || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

function shuffle<T>(xs: T[], random: () => number): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

// A mutant some passing test now fails with: committed, and the task that starts from it. Its targets are every test
// that kills it (sorted); when they span test files, the run starts from a second commit without the files of all
// but the first one (mutant-split.ts): those are the task's `testFiles`, put back by the judge, as a history task's
// tests are, and its requirement names only the targets the agents can see (in the suite's order).
async function keepMutant(site: MutationSite, failing: string[], trial: Trial): Promise<EvalTask> {
  const split = await splitKillers(failing, trial, join(trial.logDir, `mutant-split-${site.file.replace(/\W+/g, "_")}`));
  let start = await commitCandidate(trial.dir, [site.file], `eval mutant: ${site.kind}`, split ? null : "mutants");
  if (split) start = await commitCandidate(trial.dir, split.hiddenFiles, "eval mutant: its other killing tests hidden", "mutants");
  return {
    v: TASK_VERSION,
    id: `mut-${start.slice(0, 10)}`,
    commit: trial.head,
    parent: start,
    requirement: requirementFor(split ? split.visible : failing),
    testFiles: split ? split.hiddenFiles : [],
    sourceFiles: [site.file],
    gates: trial.gates,
    targets: [...failing].sort(),
    ...(split ? { visibleTargets: [...split.visible].sort() } : {}),
    guards: trial.passing.filter((id) => !failing.includes(id)).sort(),
    mutation: { kind: site.kind, description: site.description },
  };
}

/** What the model is told: the behaviour the failing tests describe, never the mutation. */
export function requirementFor(failing: string[]): string {
  const names = failing.map((id) => `- ${id.replace(/^[^:]+: /, "")}`);
  return `These tests fail, though they describe how the code is meant to behave:\n${names.join("\n")}\nFind the bug in the source and fix it so they pass again, without changing the tests.`;
}

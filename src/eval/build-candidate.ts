import { rmSync } from "node:fs";
import { join } from "node:path";
import type { GateConfig } from "../config/schema.js";
import { gatesToRun } from "../gates/missing-tool.js";
import type { TestStatus } from "../gates/parsers/types.js";
import type { GitOptions } from "../git/git.js";
import type { CarriedResults } from "./carried-results.js";
import { carriedSuite } from "./carried-suite.js";
import { runSuite, type SuiteRun, type SuiteSettings } from "./suite.js";

type Tests = Map<string, TestStatus>;

/** A worktree of the build and how to move it: `toParent` checks out the parent with the commit's tests. */
export interface CandidateTree {
  dir: string;
  git: GitOptions;
  toParent(): Promise<void>;
  toCommit(): Promise<void>;
}

/** Each test's result at the parent with the commit's tests and at the commit, or why the suite gave none. */
export type CandidateRuns = { ok: true; gates: GateConfig[]; before: Tests; after: Tests } | { ok: false; reason: string };

/**
 * The suite's results at both ends of a candidate, each as a whole-suite run gives them, with the test files whose
 * results an earlier tree of the build already gave carried rather than run (carried-suite.ts); where nothing can be
 * carried, the whole suite runs. Logs go to `logs/before` and `logs/after` (a previous build's are removed first).
 */
export async function candidateRuns(
  tree: CandidateTree,
  gates: GateConfig[] | null,
  logs: string,
  suite: SuiteSettings,
  store: CarriedResults,
): Promise<CandidateRuns> {
  rmSync(logs, { recursive: true, force: true });
  await tree.toParent();
  // Detected as a run detects them: a detected gate whose program is missing runs its plain runner, or is left out.
  const used = gates ?? gatesToRun(null, tree.dir, suite.env.PATH).gates;
  const before = await endResults(tree.dir, used, join(logs, "before"), suite, store);
  if (!before.ok) return { ok: false, reason: `the suite cannot run at the parent with the commit's tests: ${before.reason}` };
  await tree.toCommit();
  const after = await endResults(tree.dir, used, join(logs, "after"), suite, store);
  if (!after.ok) return { ok: false, reason: `the suite cannot run at the commit: ${after.reason}` };
  return { ok: true, gates: used, before: before.tests, after: after.tests };
}

// One end's results: carried where the keys allow, else (no keys, or a narrowed run that could not be read) the whole suite.
async function endResults(dir: string, gates: GateConfig[], logDir: string, suite: SuiteSettings, store: CarriedResults): Promise<SuiteRun> {
  const carried = await carriedSuite(dir, gates, logDir, suite, store);
  if (carried.ok) return carried;
  return runSuite(dir, gates, join(logDir, "whole"), suite);
}

import { join } from "node:path";
import type { GateConfig } from "../config/schema.js";
import { defaultGates } from "../gates/detect.js";
import type { TestStatus } from "../gates/parsers/types.js";
import { type GitOptions, gitOk } from "../git/git.js";
import type { CandidateCommit } from "./commits.js";
import { isCodeFile } from "./import-graph.js";
import { runSuite, type SuiteRun, type SuiteSettings } from "./suite.js";
import { type SuiteScope, suiteScope } from "./suite-scope.js";
import { worktreeFiles } from "./worktree.js";

type Tests = Map<string, TestStatus>;

/** A worktree of the build and how to move it: `toParent` checks out the parent with the commit's tests. */
export interface CandidateTree {
  dir: string;
  git: GitOptions;
  toParent(): Promise<void>;
  toCommit(): Promise<void>;
}

/** Each test's result at the parent with the commit's tests and at the commit, or why the suite gave none. */
export type CandidateRuns = { ok: true; gates: GateConfig[]; before: Tests; after: Tests; scope: SuiteScope } | { ok: false; reason: string };

/**
 * The suite's results at both ends of a candidate, with the parent's run narrowed where that cannot change them
 * (suite-scope.ts): the commit's whole suite, the narrowed files at the commit (which tests they hold: node names no
 * file in a test's id), and the narrowed files at the parent. A test outside them keeps its result at the commit. A
 * narrowed run that lists no tests makes the parent's whole suite run after all.
 */
export async function candidateRuns(
  c: CandidateCommit,
  tree: CandidateTree,
  gates: GateConfig[] | null,
  logs: string,
  suite: SuiteSettings,
): Promise<CandidateRuns> {
  await tree.toParent();
  const used = gates ?? defaultGates(tree.dir);
  const changed = await changedAtCommit(tree, c);
  const scope = suiteScope({ dir: tree.dir, files: await worktreeFiles(tree.dir), changed, testFiles: c.testFiles, gates: used, env: suite.env });
  const before = await runSuite(tree.dir, scope.narrowed ? scope.gates : used, join(logs, "before"), suite);
  if (!before.ok && !scope.narrowed) return { ok: false, reason: `the suite cannot run at the parent with the commit's tests: ${before.reason}` };
  await tree.toCommit();
  const after = await runSuite(tree.dir, used, join(logs, "after"), suite);
  if (!after.ok) return { ok: false, reason: `the suite cannot run at the commit: ${after.reason}` };
  if (!scope.narrowed) return { ok: true, gates: used, before: (before as Extract<SuiteRun, { ok: true }>).tests, after: after.tests, scope };
  const inScope = before.ok ? await runSuite(tree.dir, scope.gates, join(logs, "after-narrowed"), suite) : before;
  if (before.ok && inScope.ok) return { ok: true, gates: used, before: overlay(after.tests, inScope.tests, before.tests), after: after.tests, scope };
  return wholeParent(tree, used, logs, suite, after.tests, `a narrowed run listed no tests (${inScope.ok ? "" : inScope.reason})`);
}

// The parent's whole suite after a narrowed run that could not be read: what the build did before narrowing.
async function wholeParent(tree: CandidateTree, gates: GateConfig[], logs: string, suite: SuiteSettings, after: Tests, reason: string): Promise<CandidateRuns> {
  await tree.toParent();
  const before = await runSuite(tree.dir, gates, join(logs, "before-whole"), suite);
  if (!before.ok) return { ok: false, reason: `the suite cannot run at the parent with the commit's tests: ${before.reason}` };
  return { ok: true, gates, before: before.tests, after, scope: { narrowed: false, reason } };
}

// The commit's results, with the narrowed files' tests replaced by their results at the parent.
function overlay(after: Tests, afterInScope: Tests, beforeInScope: Tests): Tests {
  const before = new Map([...after].filter(([id]) => !afterInScope.has(id)));
  for (const [id, status] of beforeInScope) before.set(id, status);
  return before;
}

/** The commit's files other than its tests, each with its text at the commit, or null where the commit deletes it. */
async function changedAtCommit(tree: CandidateTree, c: CandidateCommit): Promise<Map<string, string | null>> {
  const tests = new Set(c.testFiles);
  const out = await gitOk(tree.dir, ["diff", "--no-renames", "--name-status", "-z", c.parent, c.commit, "--"], {}, tree.git);
  const fields = out.split("\0").filter(Boolean);
  const changed = new Map<string, string | null>();
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [status, path] = [fields[i], fields[i + 1]];
    if (tests.has(path)) continue;
    // Only code is parsed (import-graph.ts): another file's text is never read.
    const read = status !== "D" && isCodeFile(path);
    changed.set(path, status === "D" ? null : read ? await gitOk(tree.dir, ["cat-file", "blob", `${c.commit}:${path}`], {}, tree.git) : "");
  }
  return changed;
}

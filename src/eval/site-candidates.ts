import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { GateConfig } from "../config/schema.js";
import { ConfigError } from "../errors.js";
import { gatesToRun } from "../gates/missing-tool.js";
import { gitOk } from "../git/git.js";
import { runSuite, type SuiteSettings } from "./suite.js";
import type { DiscardedCandidate, EvalTask } from "./types.js";
import { addWorktree, removeWorktree } from "./worktree.js";

/** A place in one file where a candidate task is made by an edit (a mutation site, a canary's assertion). */
export interface CandidateSite {
  file: string;
  description: string;
}

/** What building candidates at HEAD needs from its caller: the same for mutants and canaries. */
export interface CandidateOptions<S extends CandidateSite> {
  root: string;
  /** How many candidates to keep. */
  count: number;
  gates: GateConfig[] | null;
  workDir: string;
  suite: SuiteSettings;
  onCandidate?(site: S, outcome: EvalTask | DiscardedCandidate): void;
}

/** One edit tried at HEAD: where it runs and what HEAD's suite said. */
export interface Trial {
  dir: string;
  head: string;
  gates: GateConfig[];
  /** The tests passing at HEAD, in the suite's order. */
  passing: string[];
  /** How the suite runs, and the folder its logs go to: keeping a candidate may run it again (mutant-split.ts). */
  suite: SuiteSettings;
  logDir: string;
}

/** What tells mutants from canaries: where they are built, where the sites come from, what an edit is, how one is kept. */
export interface CandidateKind<S extends CandidateSite> {
  /** Plural, for the error when HEAD's suite gives no per-test results. */
  noun: string;
  /** The scratch worktree's folder under the work dir. */
  folder: string;
  /** The suite logs' names: HEAD's run, and the prefix of each site's run (`<prefix>-<n>`). */
  logs: { base: string; each: string };
  /** Sites tried per candidate asked for, at most: bounds the suite runs. */
  triesPer: number;
  /** The sites in the worktree, in the order to try them; files that cannot be read go to `discarded`. */
  sites(at: { dir: string; head: string; env: NodeJS.ProcessEnv; discarded: DiscardedCandidate[] }): Promise<S[]>;
  /** The file's text with the site's edit made. */
  edit(original: string, site: S): string;
  /** Why a site is discarded when no passing test fails with it. */
  unseen: string;
  /** The task for a kept site, committed from the edited worktree; `failing` is in the suite's order. */
  keep(site: S, failing: string[], trial: Trial): Promise<EvalTask>;
}

/**
 * Builds candidate tasks at HEAD in a scratch worktree: HEAD's suite run once, then each site's edit made, the suite
 * run, the file put back; a site is kept when a test passing at HEAD fails with it, until `count` are kept.
 */
export async function buildFromSites<S extends CandidateSite>(
  opts: CandidateOptions<S>,
  kind: CandidateKind<S>,
): Promise<{ tasks: EvalTask[]; discarded: DiscardedCandidate[] }> {
  const head = (await gitOk(opts.root, ["rev-parse", "HEAD"])).trim();
  const dir = join(opts.workDir, kind.folder);
  const tasks: EvalTask[] = [];
  const discarded: DiscardedCandidate[] = [];
  try {
    await addWorktree(opts.root, dir, head);
    const gates = opts.gates ?? gatesToRun(null, dir, opts.suite.env.PATH).gates;
    const base = await runSuite(dir, gates, join(opts.workDir, "logs", kind.logs.base), opts.suite);
    if (!base.ok) throw new ConfigError(`Cannot build ${kind.noun}: the suite gives no per-test results at HEAD: ${base.reason}`);
    const passing = [...base.tests].filter(([, s]) => s === "passed").map(([id]) => id);
    const trial: Trial = { dir, head, gates, passing, suite: opts.suite, logDir: join(opts.workDir, "logs") };
    const sites = await kind.sites({ dir, head, env: opts.suite.env, discarded });
    for (const site of sites.slice(0, opts.count * kind.triesPer)) {
      if (tasks.length >= opts.count || opts.suite.signal?.aborted) break;
      const outcome = await trySite(site, kind, trial, { opts, n: tasks.length + discarded.length });
      if ("reason" in outcome) discarded.push(outcome);
      else tasks.push(outcome);
      opts.onCandidate?.(site, outcome);
    }
  } finally {
    await removeWorktree(opts.root, dir);
  }
  return { tasks, discarded };
}

// One site: its edit written, the suite run, the worktree put back to HEAD; kept when a passing test now fails.
async function trySite<S extends CandidateSite>(
  site: S,
  kind: CandidateKind<S>,
  trial: Trial,
  at: { opts: CandidateOptions<S>; n: number },
): Promise<EvalTask | DiscardedCandidate> {
  const path = join(trial.dir, site.file);
  const original = readFileSync(path, "utf8");
  writeFileSync(path, kind.edit(original, site));
  try {
    const run = await runSuite(trial.dir, trial.gates, join(at.opts.workDir, "logs", `${kind.logs.each}-${at.n}`), at.opts.suite);
    if (!run.ok) return { commit: trial.head, subject: site.description, reason: `the suite gives no per-test results with it: ${run.reason}` };
    const failing = trial.passing.filter((id) => run.tests.get(id) !== "passed");
    if (!failing.length) return { commit: trial.head, subject: site.description, reason: kind.unseen };
    return await kind.keep(site, failing, trial);
  } finally {
    // Back to HEAD: the edit undone, and any file keeping the candidate removed (a mutant's hidden tests) restored.
    await gitOk(trial.dir, ["checkout", "--force", "--detach", trial.head]);
    writeFileSync(path, original);
  }
}

/**
 * Commits the edited (or removed) `files` (detached); with `refs`, keeps the commit by `refs/yolo-eval/<refs>/<short
 * sha>`. Returns its sha.
 */
export async function commitCandidate(dir: string, files: string[], message: string, refs: string | null): Promise<string> {
  await gitOk(dir, ["add", "-A", "--", ...files]);
  const who = ["-c", "user.name=yolo eval", "-c", "user.email=eval@yolo.invalid"];
  await gitOk(dir, [...who, "commit", "-q", "-m", message]);
  const sha = (await gitOk(dir, ["rev-parse", "HEAD"])).trim();
  if (refs) await gitOk(dir, ["update-ref", `refs/yolo-eval/${refs}/${sha.slice(0, 10)}`, sha]);
  return sha;
}

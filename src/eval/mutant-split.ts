import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { isTestFile } from "../gates/definition-patterns.js";
import { gitOk } from "../git/git.js";
import type { Trial } from "./site-candidates.js";
import { runSuite } from "./suite.js";
import { worktreeFiles } from "./worktree.js";

/**
 * A mutant's killing tests split in two: the run is given one failing test as its task (with the tests of its own
 * file, which it sees anyway); the test files holding the other killing tests are taken out of the agents' tree and
 * only the judge puts them back. A model that special-cases the visible test's input then passes what it saw and
 * fails what it did not, which is what "passed visible, failed hidden" reports.
 */
export interface MutantSplit {
  /** The targets the agents' tree holds: the one the requirement names and those sharing its file. */
  visible: string[];
  /** Test files removed from the agents' tree (project-relative), each holding killing tests only the judge runs. */
  hiddenFiles: string[];
}

/**
 * Splits `failing` (a mutant's killing tests in the suite's order) in the mutated worktree `trial.dir`. The first
 * failing test whose file can be told stays visible; the files holding the others are removed and the suite is run
 * on what is left, so which targets the agents' tree holds is read from the runner, not guessed: a target the
 * runner still reports is visible. Null when nothing can be hidden (one killing file, a test whose file cannot be
 * told, or a tree without the hidden files that no longer fails the visible test); the worktree is left with the
 * hidden files removed when a split is returned, as found otherwise.
 */
export async function splitKillers(failing: string[], trial: Trial, logDir: string): Promise<MutantSplit | null> {
  const testFiles = (await worktreeFiles(trial.dir)).filter(isTestFile);
  const texts = new Map(testFiles.map((f) => [f, readFileSync(join(trial.dir, f), "utf8")]));
  // A file the runner's id names holds it alone; only an id naming none is looked for in the files' text.
  const holders = (id: string) => {
    const named = testFiles.filter((f) => names(id, f));
    return named.length ? named : testFiles.filter((f) => holds(texts.get(f) ?? "", id));
  };
  const shown = failing.find((id) => holders(id).length === 1);
  if (!shown) return null;
  const shownFile = holders(shown)[0];
  const hiddenFiles = [...new Set(failing.flatMap((id) => (holders(id).includes(shownFile) ? [] : holders(id))))].sort();
  if (!hiddenFiles.length) return null;
  for (const f of hiddenFiles) rmSync(join(trial.dir, f), { force: true });
  const run = await runSuite(trial.dir, trial.gates, logDir, trial.suite);
  const visible = run.ok ? failing.filter((id) => run.tests.has(id) && run.tests.get(id) !== "passed") : [];
  if (!visible.includes(shown) || visible.length === failing.length) {
    await gitOk(trial.dir, ["checkout", "--", ...hiddenFiles]);
    return null;
  }
  return { visible, hiddenFiles };
}

/** Whether the test `id` (`<gate>: <runner's id>`) names `file`, as pytest's, vitest's and jest's ids do. */
function names(id: string, file: string): boolean {
  const test = id.replace(/^[^:]+: /, "");
  // unittest's dotted module: `tests.test_copy` must not name `tests.test_copy_more.Case.test_x`.
  const dotted = file.replace(/\.py$/, "").replaceAll("/", ".");
  return test.includes(file) || test === dotted || test.includes(`${dotted}.`);
}

/**
 * Whether a test file's text holds the test `id`'s own name (node:test and mocha name tests, not files; a name
 * another test's name starts with is held too, so an id naming its file is never looked for here). Only a hint: the
 * suite run without the hidden files decides what the agents can see.
 */
function holds(text: string, id: string): boolean {
  const test = id.replace(/^[^:]+: /, "");
  const leaf =
    test
      .split(/::| > /)
      .pop()
      ?.split(" (")[0]
      .trim() ?? "";
  return leaf.length > 2 && text.includes(leaf);
}

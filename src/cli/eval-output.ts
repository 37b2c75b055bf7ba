import { isAbsolute, resolve } from "node:path";
import { modelLine, renderEvalJunit, renderEvalMarkdown, testsLine } from "../eval/report.js";
import { summarize } from "../eval/summary.js";
import type { TaskResult, TestsMode } from "../eval/types.js";
import { writeOutputFile } from "./write-output.js";

/** The flags that choose how an eval's results are shown: a run's (`--tasks`) and a merge's alike. */
export interface EvalOutputFlags {
  json?: boolean;
  report?: string;
  junit?: string;
  minResolve?: number;
}

/**
 * Prints and writes an eval's results (the model lines, or `--report md`, or `--json`; `--junit`), computed from the
 * results themselves, so a merged eval's figures are the union's. The exit code is --min-resolve's verdict.
 */
export function printEvalReport(
  opts: EvalOutputFlags,
  evalRun: { name: string; tests: TestsMode; models: string[]; results: TaskResult[] },
  cwd: string,
): number {
  const { name, tests, results } = evalRun;
  const summaries = summarize(results, evalRun.models);
  const file = (f: string) => (isAbsolute(f) ? f : resolve(cwd, f));
  if (opts.junit) writeOutputFile(file(opts.junit), renderEvalJunit(name, summaries, results, tests), "--junit");
  if (opts.json) process.stdout.write(`${JSON.stringify({ name, tests, models: summaries, results })}\n`);
  else if (opts.report === "md") process.stdout.write(renderEvalMarkdown(name, summaries, results, tests));
  else {
    process.stdout.write(`${testsLine(tests)}\n`);
    for (const s of summaries) process.stdout.write(`${modelLine(s)}\n`);
  }
  const notRun = results.filter((r) => r.verdict === "not-run").length;
  if (notRun) {
    const what = opts.minResolve === undefined ? "the figures are over the tasks that ran" : "--min-resolve cannot pass on a partial eval (exit 1)";
    process.stderr.write(
      `yolo: ${notRun} task(s) not run (budget): the whole eval's budget was spent; ${what}. Run again with a larger --eval-max-cost / --eval-max-tokens to run them (judged tasks are kept).\n`,
    );
  }
  const below = opts.minResolve === undefined ? [] : summaries.filter((s) => s.resolveRate < (opts.minResolve as number));
  for (const s of below) process.stderr.write(`yolo: ${s.model} resolved ${s.resolved}/${s.tasks}, below --min-resolve ${opts.minResolve}\n`);
  return below.length || (notRun && opts.minResolve !== undefined) ? 1 : 0;
}

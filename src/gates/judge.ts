import type { GateResult } from "../events/schema.js";
import { type RunEvidence, statusesFromCounts } from "./file-evidence.js";
import { judgeFindings } from "./judge-findings.js";
import type { FileOutcome, TestCase } from "./parsers/types.js";
import { withUnitFailures } from "./unit-failures.js";

/** One gate as the baseline ran it, before any agent changed a file. */
export interface BaselineGate {
  name: string;
  passed: boolean;
  passedCount: number | null;
  failedCount: number | null;
  /** Every test the runner reported, or null when it gave counts only. */
  tests: TestCase[] | null;
  /** Files the runner summed up with a count instead of listing their tests (absent in older records). */
  files?: FileOutcome[] | null;
  /** Tests the runner counted as skipped or todo, when it said (absent in older records). */
  skippedCount?: number | null;
  /**
   * A `baseline: "findings"` gate's normalized output lines (lint-findings.ts); null when too long to compare, absent
   * in older records and for other gates.
   */
  findings?: string[] | null;
}

/** A failing test a person declared broken for reasons outside the task, and where they declared it. */
export interface KnownFailure {
  id: string;
  declaredIn: string;
}

/** How a later run of a gate compares with its baseline: the fields `gate.result` gains, and whether it blocks. */
export interface GateJudgement {
  /** Passed at the baseline, fails or is not run now. */
  regressions: string[];
  /** Failing at the baseline and not passing now (still failing, or no longer run): the task's targets left. */
  preExisting: string[];
  /** Failing now, not in the baseline. */
  newFailures: string[];
  /** In the baseline (passing or failing) and not run now: gone, skipped, todo. */
  missing: string[];
  /** Failing at the baseline, passing now. */
  fixed: string[];
  /** Passing now, not in the baseline. */
  newPassing: string[];
  /** Passed now only after the runner retried them. */
  flaky: string[];
  /** Failing (or not run) now and declared a known failure: reported, never blocking. */
  known: KnownFailure[];
  findings: string[];
  gateChange: string[];
  blocking: boolean;
}

export interface JudgeOptions {
  /**
   * `baseline: "report"` (an opt-in): failures already there at the baseline are listed and do not block. Otherwise
   * they are the task's targets and block until they pass.
   */
  preExistingAllowed: boolean;
  /** What an agent changed in the gate's definition since the baseline (or since the last approval). */
  changes: string[];
  /** A human approved `changes`: they do not block, and tests that went missing with them are a finding only. */
  approved: boolean;
  /**
   * A narrowed run (only the workspaces a change touches): whether a baseline test is among those it runs. Tests
   * outside it are not missing (the baseline ran the whole suite); absent, every baseline test is in scope.
   */
  inScope?: (id: string) => boolean;
  /** Where a person declared the test a known failure (config, flag, an accepted claim), or null when they did not. */
  known?: (id: string) => string | null;
  /** What this run said beyond its listed tests: files summed up with a count, its skipped count, its runner. */
  evidence?: RunEvidence;
  /**
   * Present only for a `baseline: "findings"` gate (a lint, a type check): this run's normalized output lines, null
   * when too long to compare. Such a gate is judged by its findings against the baseline's (judge-findings.ts).
   */
  findings?: string[] | null;
}

const LIST_MAX = 50;
const clipList = (ids: string[]) => (ids.length > LIST_MAX ? [...ids.slice(0, LIST_MAX), `… and ${ids.length - LIST_MAX} more`] : ids);
const ran = (status: string | undefined) => status === "passed" || status === "failed";

/**
 * Judges a gate run against its baseline; yolo decides, not the model. A test that passed at the baseline and now
 * fails or is not run (missing, skipped, todo: whatever the marker's spelling) is a regression; a failing test that
 * was not failing at the baseline is a new failure; a test failing at the baseline is a target that blocks until it
 * passes (unless the gate opted into `baseline: "report"`). A person's known failures never block. An unapproved
 * change to what defines the gate blocks whatever the tests say. Without per-test results on both sides the exit
 * code decides, as it did before baselines.
 */
export function judgeGate(result: GateResult, tests: TestCase[] | null, base: BaselineGate | undefined, opts: JudgeOptions): GateJudgement {
  const changeBlocks = opts.changes.length > 0 && !opts.approved;
  const out: GateJudgement = {
    ...{ regressions: [], preExisting: [], newFailures: [], missing: [], fixed: [], newPassing: [], flaky: [], known: [], findings: [] },
    gateChange: opts.changes,
    blocking: false,
  };
  if (opts.findings !== undefined) return judgeFindings(result, opts.findings, base, changeBlocks, out);
  const inScope = opts.inScope ?? (() => true);
  const summed = Boolean(opts.evidence?.files?.length || base?.files?.length);
  const nowTotal = tests && !summed ? tests.length : (total(result.passedCount, result.failedCount) ?? tests?.length ?? null);
  // A narrowed run is compared with the baseline's tests in its scope; with counts only, it cannot be compared.
  const baseTotal = opts.inScope
    ? (base?.tests?.filter((t) => inScope(t.id)).length ?? null)
    : base?.tests && !summed
      ? base.tests.length
      : base
        ? total(base.passedCount, base.failedCount)
        : null;
  if (baseTotal !== null && nowTotal !== null && nowTotal < baseTotal) out.findings.push(`fewer tests than the baseline: ${nowTotal}, was ${baseTotal}`);
  out.flaky = (tests ?? []).filter((t) => t.flaky && t.status === "passed").map((t) => t.id);
  if (out.flaky.length) out.findings.push(`passed only after a retry (flaky): ${clipList(out.flaky).join(", ")}`);
  const red = !result.passed;
  if (!base?.tests) {
    out.blocking = result.required && (red || changeBlocks);
    return out;
  }
  // A file that did not import or a package that did not build fails the baseline's tests under it (unit-failures.ts).
  const now = readNow(result, withUnitFailures(tests ?? [], base.tests), out, opts);
  // Tests the run did not list one by one are read from the runner's count for their file (file-evidence.ts).
  const counted = statusesFromCounts({ ...base, tests: base.tests }, now, result, opts.evidence ?? {}, inScope);
  for (const [id, status] of counted.inferred) now.set(id, status);
  out.findings.push(...counted.findings);
  const excused = compareWithBaseline(out, base.tests, now, opts, inScope);
  if (!red && opts.evidence?.runner && (out.regressions.length || out.newFailures.length)) out.findings.push(contradiction(result, out, opts.evidence.runner));
  // A red exit is explained only by failing tests it listed that do not block; a crash or a timeout with none is not.
  const failingNow = [...now].filter(([, s]) => s === "failed").map(([id]) => id);
  const explained = !red || (!result.timedOut && failingNow.length > 0 && failingNow.every((id) => excused.has(id)));
  const targetsBlock = !opts.preExistingAllowed && out.preExisting.length > 0;
  if (red && !result.timedOut && failingNow.length === 0) out.findings.push(unexplainedExit(result));
  out.blocking = result.required && (changeBlocks || out.regressions.length > 0 || out.newFailures.length > 0 || targetsBlock || !explained);
  for (const key of ["regressions", "preExisting", "newFailures", "missing", "fixed", "newPassing", "flaky"] as const) out[key] = clipList(out[key]);
  if (out.known.length > LIST_MAX) out.known = out.known.slice(0, LIST_MAX);
  return out;
}

/**
 * The run's listed tests by id. When the runner exited 0 and counted no failure, a test yolo read as failing from its
 * output is judged by the runner's count (passed), and a finding says what could not be read.
 */
function readNow(result: GateResult, now: Map<string, string>, out: GateJudgement, opts: JudgeOptions): Map<string, string> {
  if (!result.passed || result.failedCount !== 0) return now;
  const misread = [...now].filter(([, s]) => s === "failed").map(([id]) => id);
  if (!misread.length) return now;
  for (const id of misread) now.set(id, "passed");
  out.findings.push(
    `${opts.evidence?.runner ?? "the runner"} exited 0 and counted no failure, but yolo read ${misread.length} tests as failing from its output (${clipList(misread).join(", ")}): judged by the runner's count`,
  );
  return now;
}

// A line of a runner's output that says why it failed the run: a threshold, an error.
const REASON_LINE = /threshold|not met|\berror\b|ERR!/i;

/**
 * A red exit with no failing test listed: something other than a test failed the command (a coverage threshold, a
 * step chained after the tests, a crash after the last test). Said in the output's own words where a line names it.
 */
function unexplainedExit(result: GateResult): string {
  const said = result.tail
    .split("\n")
    .map((l) => l.trim())
    .find((l) => l.length <= 300 && REASON_LINE.test(l));
  return `${result.command} exited ${result.exitCode ?? "without a code"} with no failing test: something other than a test failed it${said ? ` (its output: "${said}")` : " (see its output)"}`;
}

// Exit code 0 while yolo's per-test reading says a test regressed or a new one fails: said, never resolved silently.
function contradiction(result: GateResult, out: GateJudgement, runner: string): string {
  const ids = [...out.regressions, ...out.newFailures];
  return `${runner} exited ${result.exitCode ?? 0}, but yolo's reading of its output has ${ids.length} tests failing or missing against the baseline (${clipList(ids).join(", ")}): the output did not show them passing`;
}

/**
 * Sorts every test into what changed since the baseline (filling `out`); returns the failing tests that are
 * already accounted for (targets still failing, known failures), which alone may explain a red exit.
 */
function compareWithBaseline(
  out: GateJudgement,
  baseTests: TestCase[],
  now: Map<string, string>,
  opts: JudgeOptions,
  inScope: (id: string) => boolean,
): Set<string> {
  const known = opts.known ?? (() => null);
  const excused = new Set<string>();
  const before = new Map(baseTests.map((t) => [t.id, t.status]));
  const gone: string[] = [];
  const goneTargets: string[] = [];
  for (const [id, was] of before) {
    if (!ran(was) || !inScope(id)) continue;
    const after = now.get(id);
    if (after === "passed") {
      if (was === "failed") out.fixed.push(id);
      continue;
    }
    const declared = known(id);
    if (declared !== null) {
      out.known.push({ id, declaredIn: declared });
      excused.add(id);
      continue;
    }
    // A test file that failed to load at the baseline is reported by its path; once it loads, its tests are.
    if (was === "failed" && after === undefined && fileLevel(id)) {
      out.fixed.push(id);
      continue;
    }
    if (!ran(after)) {
      out.missing.push(id);
      (was === "passed" ? gone : goneTargets).push(id);
    } else if (was === "passed") out.regressions.push(id);
    else {
      out.preExisting.push(id);
      excused.add(id);
    }
  }
  for (const [id, status] of now) {
    if (ran(before.get(id))) continue;
    if (status === "passed") out.newPassing.push(id);
    if (status !== "failed") continue;
    const declared = known(id);
    if (declared === null) out.newFailures.push(id);
    else {
      out.known.push({ id, declaredIn: declared });
      excused.add(id);
    }
  }
  if (opts.approved && out.missing.length) out.findings.push(`tests gone with the approved gate change: ${out.missing.length}`);
  else {
    out.regressions.push(...gone);
    out.preExisting.push(...goneTargets);
  }
  return excused;
}

// `test/add.test.js`, `tests/test_x.py`: an id that is a file's path (no test name), as runners name a file that fails to load.
function fileLevel(id: string): boolean {
  return !/ > |::| /.test(id) && /\.(?:[cm]?[jt]sx?|py|rb|go|rs|java|kt|php|cs)$/.test(id);
}

function total(passed: number | null, failed: number | null): number | null {
  return passed === null && failed === null ? null : (passed ?? 0) + (failed ?? 0);
}

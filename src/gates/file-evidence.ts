import type { FileOutcome, TestCase, TestStatus } from "./parsers/types.js";

/** What a run says beyond its listed tests: the files it summed up, its skipped count, and which runner said it. */
export interface RunEvidence {
  files?: FileOutcome[] | null;
  skippedCount?: number | null;
  runner?: string | null;
}

/** The baseline's side of the same: its tests, counts and summed-up files (absent in records older than them). */
export interface BaselineEvidence {
  tests: TestCase[];
  passedCount: number | null;
  failedCount: number | null;
  files?: FileOutcome[] | null;
  skippedCount?: number | null;
}

interface RunCounts {
  passedCount: number | null;
  failedCount: number | null;
}

const ran = (s: string | undefined) => s === "passed" || s === "failed";
const owns = (file: string, id: string) => file === "" || id === file || id.startsWith(`${file} > `);

/**
 * The status of each baseline test this run ran but did not list one by one, read from the runner's own count for
 * its file (vitest's `✓ file (34 tests)`, jest's `PASS file`, a file that did not load, or — with no per-test list
 * at all — the run's counts as one file): a green file whose count did not drop and whose skipped count did not grow
 * passed them; a file that did not load failed them. Where the count cannot vouch for them they stay unlisted (so
 * missing, which blocks) and a finding says why. Nothing is inferred for a test whose file says nothing.
 */
export function statusesFromCounts(
  base: BaselineEvidence,
  now: ReadonlyMap<string, string>,
  counts: RunCounts,
  evidence: RunEvidence,
  inScope: (id: string) => boolean,
): { inferred: Map<string, TestStatus>; findings: string[] } {
  const inferred = new Map<string, TestStatus>();
  const findings: string[] = [];
  const files = [...(evidence.files ?? [])];
  if (now.size === 0 && (counts.passedCount !== null || counts.failedCount !== null)) files.push(wholeRun(counts, evidence));
  if (!files.length) return { inferred, findings };
  const groups = new Map<FileOutcome, string[]>();
  for (const t of base.tests) {
    if (!ran(t.status) || now.has(t.id) || !inScope(t.id)) continue;
    const owner = ownerOf(files, t.id);
    if (owner) groups.set(owner, [...(groups.get(owner) ?? []), t.id]);
  }
  for (const [file, ids] of groups) {
    if (file.loadError) {
      for (const id of ids) inferred.set(id, "failed");
      continue;
    }
    const doubt = doubtOf(file, ids.length, base, now, counts, evidence);
    if (doubt === null) for (const id of ids) inferred.set(id, "passed");
    else
      findings.push(
        `${evidence.runner ?? "the runner"}: ${file.file || "the run"}: ${doubt}, so ${ids.length} tests it did not list one by one are judged missing`,
      );
  }
  return { inferred, findings };
}

// The run's counts as one file holding every test, for output that lists none (a dot reporter, a summary only).
function wholeRun(counts: RunCounts, evidence: RunEvidence): FileOutcome {
  const skipped = evidence.skippedCount ?? 0;
  const failed = counts.failedCount ?? 0;
  return { file: "", status: failed > 0 ? "failed" : "passed", count: (counts.passedCount ?? 0) + failed + skipped, skipped };
}

// The most specific file whose tests the id is one of.
function ownerOf(files: FileOutcome[], id: string): FileOutcome | null {
  let best: FileOutcome | null = null;
  for (const f of files) if (owns(f.file, id) && (!best || f.file.length > best.file.length)) best = f;
  return best;
}

/** Why the file's count cannot vouch that `unlisted` tests passed, or null when it can. */
function doubtOf(
  file: FileOutcome,
  unlisted: number,
  base: BaselineEvidence,
  now: ReadonlyMap<string, string>,
  counts: RunCounts,
  evidence: RunEvidence,
): string | null {
  if (file.status === "skipped") return "the runner skipped the file";
  if (file.count === null) {
    const baseSkipped = base.skippedCount ?? base.tests.filter((t) => t.status === "skipped").length;
    // jest names a file without its count: the run's own totals must not have dropped, nor its skipped count grown.
    const total = (counts.passedCount ?? 0) + (counts.failedCount ?? 0);
    const baseTotal = (base.passedCount ?? 0) + (base.failedCount ?? 0);
    const skipped = evidence.skippedCount ?? 0;
    if (total < baseTotal) return `the runner counted ${total} tests, the baseline ${baseTotal}`;
    if (skipped > baseSkipped) return `the runner counted ${skipped} skipped or todo, the baseline ${baseSkipped}`;
    return null;
  }
  const baseSkipped = skippedIn(base, file.file);
  const before = base.files?.find((f) => f.file === file.file)?.count;
  if (typeof before === "number" && file.count < before) return `the runner counted ${file.count} tests, the baseline ${before}`;
  const listed = [...now].filter(([id, s]) => ran(s) && owns(file.file, id)).length;
  const failedUnlisted = file.file === "" ? (counts.failedCount ?? 0) : 0;
  const room = file.count - file.skipped - listed - failedUnlisted;
  if (failedUnlisted > 0) return `the runner counted ${failedUnlisted} failing without naming them`;
  if (room < unlisted)
    return `the runner counted ${file.count} tests (${file.skipped} skipped or todo), room for ${Math.max(room, 0)} of the baseline's ${unlisted}`;
  if (file.skipped > baseSkipped) return `the runner counted ${file.skipped} skipped or todo, the baseline ${baseSkipped}`;
  return null;
}

// The baseline's skipped tests in a file: its own count when it summed the file up, else the tests it listed as skipped.
function skippedIn(base: BaselineEvidence, file: string): number {
  if (file === "" && typeof base.skippedCount === "number") return base.skippedCount;
  const summed = base.files?.find((f) => f.file === file);
  if (summed) return summed.skipped;
  const listed = base.tests.filter((t) => t.status === "skipped" && owns(file, t.id)).length;
  return file === "" ? Math.max(listed, base.skippedCount ?? 0) : listed;
}

/** One test's outcome in one gate run. */
export type TestStatus = "passed" | "failed" | "skipped";

/**
 * One test as the runner reported it. `id` identifies the test across runs of the same gate
 * (file or suite plus the full test name, as the runner spells them), so a baseline can be compared with a later run.
 */
export interface TestCase {
  id: string;
  status: TestStatus;
  /**
   * This failure is a whole unit's, not one test's: a test file that did not import, a Go package that did not build
   * or panicked, a crate that did not compile. Every test whose id starts with `unit` that the run did not report
   * failed with it (src/gates/unit-failures.ts); "" stands for every test of the run.
   */
  unit?: string;
  /**
   * Passed only after the runner retried it (vitest `--retry`, jest `retryTimes`, mocha `this.retries`), or reran after a
   * failure (pytest-rerunfailures; its status is the last run's): flaky.
   */
  flaky?: boolean;
}

/** What a test runner's output says about the run; null counts when the output does not say. */
export interface TestCounts {
  passedCount: number | null;
  failedCount: number | null;
  /** Names of the first failing tests (at most MAX_FAILURES). */
  failures: string[];
  /**
   * Every test the run reported, when the runner lists them (verbose output, TAP, a JUnit XML report, a JSON
   * reporter); absent or null when only counts are known.
   */
  tests?: TestCase[] | null;
  /** Files the runner summed up with a count rather than test by test (see FileOutcome); absent when none. */
  files?: FileOutcome[] | null;
  /** Tests the runner counted as skipped or todo, when its summary says. */
  skippedCount?: number | null;
}

/** Recognises one runner's output; null when the output is not from that runner. */
export type OutputParser = (text: string) => TestCounts | null;

export const MAX_FAILURES = 10;
const MAX_NAME_CHARS = 200;

/** First MAX_FAILURES distinct, non-empty names, each clipped. */
export function firstFailures(names: Iterable<string>): string[] {
  const out: string[] = [];
  for (const raw of names) {
    const name = raw.trim();
    const clipped = name.length > MAX_NAME_CHARS ? `${name.slice(0, MAX_NAME_CHARS)}…` : name;
    if (clipped && !out.includes(clipped)) out.push(clipped);
    if (out.length >= MAX_FAILURES) break;
  }
  return out;
}

/** The number before `word` in a summary like `2 failed | 3 passed`, 0 when the word is absent. */
export function countOf(summary: string, words: string[]): number {
  let total = 0;
  for (const word of words) {
    const match = new RegExp(`(\\d+) ${word}\\b`).exec(summary);
    if (match) total += Number(match[1]);
  }
  return total;
}

/** Sum of the numbers captured by the first group of every match of `pattern` (a `gm` regex); null when none match. */
export function sumMatches(text: string, pattern: RegExp): number | null {
  let total: number | null = null;
  for (const match of text.matchAll(pattern)) total = (total ?? 0) + Number(match[1]);
  return total;
}

/**
 * A test file as the runner summed it up: vitest's `✓ file (34 tests | 2 skipped)`, jest's `PASS file`, a file that
 * failed to load. It is evidence about the file's tests that the runner did not list one by one: a green file's tests
 * passed, a file that did not load failed them all. `count` is the runner's own number of tests in the file (skipped
 * ones included), null when it does not say; `skipped` how many of them were skipped or todo.
 */
export interface FileOutcome {
  file: string;
  status: TestStatus;
  count: number | null;
  skipped: number;
  /** The file failed before any of its tests ran (an import error, a syntax error). */
  loadError?: boolean;
}

/** The fields a summary adds only when it says something: files summed up, a non-zero skipped count. */
export function summedUp(files: FileOutcome[], skipped: number): Pick<TestCounts, "files" | "skippedCount"> {
  return { ...(files.length ? { files } : {}), ...(skipped > 0 ? { skippedCount: skipped } : {}) };
}

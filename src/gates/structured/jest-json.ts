import path from "node:path";
import type { FileOutcome, TestCase, TestStatus } from "../parsers/types.js";
import type { StructuredReading } from "./types.js";

/** Tests read from one report at most; a larger suite's report is cut there (its counts still come from the output). */
export const MAX_REPORT_TESTS = 100_000;
const MAX_NAME_CHARS = 1000;

interface JsonAssertion {
  ancestorTitles?: unknown;
  title?: unknown;
  status?: unknown;
  failureMessages?: unknown;
  invocations?: unknown;
}
interface JsonFile {
  name?: unknown;
  status?: unknown;
  assertionResults?: unknown;
  testExecError?: unknown;
}

const STATUS: Record<string, TestStatus> = { passed: "passed", failed: "failed", skipped: "skipped", pending: "skipped", todo: "skipped", disabled: "skipped" };

/**
 * The JSON report jest writes (`--json --outputFile`) and vitest's `json` reporter copies: per file its tests with
 * their describe titles and status. Ids are `file > describe > test`, as the printed-output readers spell them. A
 * file that failed to load is one failing test named by its path and a FileOutcome saying so; a test that passed
 * after a retry is flaky (`retried` says how the runner shows that). Null when the text is not such a report.
 */
export function readJestShapedJson(text: string, root: string, retried: (a: JsonAssertion) => boolean): StructuredReading | null {
  let doc: { testResults?: unknown };
  try {
    doc = JSON.parse(text) as { testResults?: unknown };
  } catch {
    return null;
  }
  if (!doc || !Array.isArray(doc.testResults)) return null;
  const tests: TestCase[] = [];
  const files: FileOutcome[] = [];
  for (const file of doc.testResults as JsonFile[]) {
    if (tests.length >= MAX_REPORT_TESTS) break;
    if (!file || typeof file.name !== "string") continue;
    const rel = relative(file.name, root);
    const cases = (Array.isArray(file.assertionResults) ? (file.assertionResults as JsonAssertion[]) : []).map((a) => testOf(rel, a, retried));
    tests.push(...cases);
    const failed = file.status === "failed" || Boolean(file.testExecError);
    // A file red with no failing test of its own (it did not load, an afterAll threw): the file itself is the failure.
    if (failed && !cases.some((c) => c.status === "failed")) tests.push({ id: rel, status: "failed" });
    const skipped = cases.filter((c) => c.status === "skipped").length;
    const outcome: FileOutcome = {
      file: rel,
      status: failed ? "failed" : cases.length === skipped && cases.length > 0 ? "skipped" : "passed",
      count: cases.length,
      skipped,
    };
    if (failed && cases.length === 0) outcome.loadError = true;
    files.push(outcome);
  }
  return { tests, files };
}

function testOf(file: string, a: JsonAssertion, retried: (a: JsonAssertion) => boolean): TestCase {
  const ancestors = Array.isArray(a.ancestorTitles) ? a.ancestorTitles.filter((t): t is string => typeof t === "string") : [];
  const title = typeof a.title === "string" ? a.title : "";
  const id = clip([file, ...ancestors, title].join(" > "));
  const status = STATUS[String(a.status)] ?? "failed";
  return status === "passed" && retried(a) ? { id, status, flaky: true } : { id, status };
}

// Reports name files by absolute path; ids are project-relative, as the printed output names them.
function relative(file: string, root: string): string {
  const rel = path.isAbsolute(file) ? path.relative(root, file) : file;
  return clip(rel.startsWith("..") ? file : rel.split(path.sep).join("/"));
}

const clip = (s: string) => (s.length > MAX_NAME_CHARS ? `${s.slice(0, MAX_NAME_CHARS)}…` : s);

/** vitest: a passing test that failed before keeps the earlier attempts' messages. */
export const vitestRetried = (a: JsonAssertion) => Array.isArray(a.failureMessages) && a.failureMessages.length > 0;
/** jest: `invocations` counts the attempts (`jest.retryTimes`). */
export const jestRetried = (a: JsonAssertion) => typeof a.invocations === "number" && a.invocations > 1;

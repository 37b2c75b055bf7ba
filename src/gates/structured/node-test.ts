import type { TestCase, TestStatus } from "../parsers/types.js";
import { MAX_REPORT_TESTS } from "./jest-json.js";
import { seeCommand, startsWithRunner } from "./script.js";
import type { StructuredReading, StructuredRunner } from "./types.js";
import { xmlAttribute } from "../xml-attribute.js";

/**
 * `node --test`: its `junit` reporter beside `spec` on stdout, asked for in NODE_OPTIONS — flags appended after
 * `node --test test/` would be taken for file patterns, and only a process started with `--test` acts on them. A
 * script that picks its own reporters is left alone.
 */
export const nodeTestRunner: StructuredRunner = {
  runner: "node:test",
  command(command, scripts) {
    const seen = seeCommand(command, scripts);
    if (!seen || !startsWithRunner(seen.line, "node") || !/\s--test(?:\s|$)/.test(seen.line) || /--test-reporter/.test(seen.line)) return null;
    return command;
  },
  env(env, reportPath) {
    const flags = `--test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination="${reportPath}"`;
    return { NODE_OPTIONS: [env.NODE_OPTIONS, flags].filter(Boolean).join(" ") };
  },
  read: (text, root) => readNodeJUnit(text, root),
};

// Each tag of the report in order; a test case's body is looked at separately (its text is escaped, never a tag).
const TAG = /<(\/?)(testsuites|testsuite|testcase)\b([^>]*?)(\/?)>/g;

/**
 * node's junit report: test suites nest as describe blocks do, so an id is `suite > inner > test`, as node's TAP and
 * spec readers spell it (node names no file; a file that failed to load is a case named by its path).
 */
export function readNodeJUnit(xml: string, root: string): StructuredReading | null {
  if (!/<testsuites\b/.test(xml)) return null;
  const suites: string[] = [];
  const tests: TestCase[] = [];
  for (const m of xml.matchAll(TAG)) {
    if (tests.length >= MAX_REPORT_TESTS) break;
    const [, closing, tag, attrs, selfClosing] = m;
    if (tag === "testsuite") {
      if (closing) suites.pop();
      else if (!selfClosing) suites.push(xmlAttribute(attrs, "name") ?? "");
      continue;
    }
    if (tag !== "testcase" || closing) continue;
    const name = (xmlAttribute(attrs, "name") ?? "").replaceAll(`${root}/`, "");
    const end = selfClosing ? -1 : xml.indexOf("</testcase>", (m.index ?? 0) + m[0].length);
    const body = end < 0 ? "" : xml.slice((m.index ?? 0) + m[0].length, end);
    const status: TestStatus = /<(?:failure|error)\b/.test(body) ? "failed" : /<skipped\b/.test(body) ? "skipped" : "passed";
    tests.push({ id: [...suites, name].join(" > "), status });
  }
  return { tests };
}

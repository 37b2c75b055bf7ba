import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jestRetried, readJestShapedJson, vitestRetried } from "../../../../src/gates/structured/jest-json.js";
import { readNodeJUnit } from "../../../../src/gates/structured/node-test.js";
import { readReport } from "../../../../src/gates/structured/report-folder.js";

const file = (name: string, status: string, tests: object[], extra: object = {}) => ({ name: `/p/${name}`, status, assertionResults: tests, ...extra });
const test = (ancestorTitles: string[], title: string, status: string, extra: object = {}) => ({ ancestorTitles, title, status, ...extra });

describe("the runners' own reports", () => {
  it("reads jest-shaped JSON by file and describe path; a file that did not load fails as itself", () => {
    const json = JSON.stringify({
      testResults: [
        file("test/a.test.js", "failed", [
          test(["outer", "inner"], "adds", "passed"),
          test(["outer", "inner"], "subs", "failed"),
          test([], "later", "pending"),
          test([], "soon", "todo"),
        ]),
        file("test/c.test.js", "failed", [], { message: "Cannot find module" }),
        file("test/d.test.js", "passed", [test([], "flaky", "passed", { invocations: 2 })]),
      ],
    });
    expect(readJestShapedJson(json, "/p", jestRetried)).toEqual({
      tests: [
        { id: "test/a.test.js > outer > inner > adds", status: "passed" },
        { id: "test/a.test.js > outer > inner > subs", status: "failed" },
        { id: "test/a.test.js > later", status: "skipped" },
        { id: "test/a.test.js > soon", status: "skipped" },
        { id: "test/c.test.js", status: "failed" },
        { id: "test/d.test.js > flaky", status: "passed", flaky: true },
      ],
      files: [
        { file: "test/a.test.js", status: "failed", count: 4, skipped: 2 },
        { file: "test/c.test.js", status: "failed", count: 0, skipped: 0, loadError: true },
        { file: "test/d.test.js", status: "passed", count: 1, skipped: 0 },
      ],
    });
  });

  it("vitest marks a retried pass by the failed attempts' messages it keeps", () => {
    const json = JSON.stringify({ testResults: [file("t.test.js", "passed", [test([], "x", "passed", { failureMessages: ["boom"] })])] });
    expect(readJestShapedJson(json, "/p", vitestRetried)?.tests).toEqual([{ id: "t.test.js > x", status: "passed", flaky: true }]);
    expect(readJestShapedJson("not json {", "/p", vitestRetried)).toBeNull();
    expect(readJestShapedJson('{"other":1}', "/p", vitestRetried)).toBeNull();
  });

  it("reads node's junit report with nested suites as node's TAP names them", () => {
    const xml = `<?xml version="1.0"?><testsuites>
<testsuite name="outer"><testsuite name="in &gt; ner"><testcase name="adds" classname="test"/>
<testcase name="subs" classname="test"><failure message="0 == 1">x</failure></testcase></testsuite></testsuite>
<testcase name="later" classname="test"><skipped type="skipped"/></testcase>
<testcase name="/p/test/c.test.js" classname="test"><failure message="test failed"/></testcase></testsuites>`;
    expect(readNodeJUnit(xml, "/p")?.tests).toEqual([
      { id: "outer > in > ner > adds", status: "passed" },
      { id: "outer > in > ner > subs", status: "failed" },
      { id: "later", status: "skipped" },
      { id: "test/c.test.js", status: "failed" },
    ]);
  });

  it("never follows a link the command left where its report should be", () => {
    const dir = mkdtempSync(join(tmpdir(), "yolo-report-test-"));
    try {
      writeFileSync(join(dir, "secret"), "s3cret");
      symlinkSync(join(dir, "secret"), join(dir, "report"));
      expect(readReport(join(dir, "report"))).toBeNull();
      writeFileSync(join(dir, "plain"), "{}");
      expect(readReport(join(dir, "plain"))).toBe("{}");
      expect(readReport(join(dir, "missing"))).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

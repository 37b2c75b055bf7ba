import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import type { YoloEvent } from "../../src/events/schema.js";
import { describeResult, parseEvents, runYolo } from "../helpers/cli.js";
import { call, director, handoff, pmDone, analystDone, teaSays, type Turn } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";
import { repoModules } from "../helpers/repo-modules.js";

// Projects shaped like real ones, one per runner: several test files, a nested describe and a parametrized test, a
// failing file printed in full at the baseline and summed up in one line once green. The scripted dev first writes a
// wrong fix (the gate sends it back), then the right one; the real runner judges each attempt.
const REQ = "Make the failing tests in the parse spec pass";
const BAD = "export function parse(s) {\n  const [name, value] = s.split('=');\n  return { name, value: name };\n}\n";
const WRONG = "export function parse(s) {\n  const [name, value] = s.split('=');\n  return { name, value: `${value} ` };\n}\n";
const RIGHT = "export function parse(s) {\n  const [name, value] = s.split('=');\n  return { name, value };\n}\n";
const cjs = (esm: string) => esm.replace("export function parse", "exports.parse = function parse");

interface Shape {
  script: string;
  esm: boolean;
  spec: string;
  other: string;
  /** The baseline's failing tests, as the runner names them. */
  targets: string[];
}

const VITEST_SPEC = `import { describe, it, expect, test } from "vitest";
import { parse } from "../src/parse.js";
describe("cookies", () => {
  describe("attrs", () => {
    it("parses a name", () => expect(parse("a=1").name).toBe("a"));
    it("parses a value", () => expect(parse("a=1").value).toBe("1"));
  });
  test.each([["b=2", "b"], ["c=3", "c"]])("names %s", (input, name) => expect(parse(input).name).toBe(name));
});
it("top level", () => expect(parse("x=y").value).toBe("y"));
`;
const JEST_SPEC = VITEST_SPEC.replace(
  'import { describe, it, expect, test } from "vitest";\nimport { parse } from "../src/parse.js";',
  'const { parse } = require("../src/parse.js");',
);
const NODE_SPEC = `import { describe, it, test } from "node:test";
import assert from "node:assert/strict";
import { parse } from "../src/parse.js";
describe("cookies", () => {
  describe("attrs", () => {
    it("parses a name", () => assert.equal(parse("a=1").name, "a"));
    it("parses a value", () => assert.equal(parse("a=1").value, "1"));
  });
  for (const [input, name] of [["b=2", "b"], ["c=3", "c"]]) test(\`names \${input}\`, () => assert.equal(parse(input).name, name));
});
it("top level", () => assert.equal(parse("x=y").value, "y"));
`;
const SHAPES: Record<string, Shape> = {
  vitest: {
    script: "vitest run",
    esm: true,
    spec: VITEST_SPEC,
    other: 'import { it, expect } from "vitest";\nit("one", () => expect(1).toBe(1));\nit("two", () => expect(2).toBe(2));\n',
    targets: ["test/parse.spec.js > cookies > attrs > parses a value", "test/parse.spec.js > top level"],
  },
  jest: {
    script: "jest",
    esm: false,
    spec: JEST_SPEC,
    other: 'it("one", () => expect(1).toBe(1));\nit("two", () => expect(2).toBe(2));\n',
    targets: ["test/parse.spec.js > cookies > attrs > parses a value", "test/parse.spec.js > top level"],
  },
  "node:test": {
    script: "node --test test/",
    esm: true,
    spec: NODE_SPEC,
    other: 'import { it } from "node:test";\nimport assert from "node:assert/strict";\nit("one", () => assert.equal(1, 1));\n',
    targets: ["cookies > attrs > parses a value", "top level"],
  },
};

const write = (path: string, content: string): Turn[] => [
  call("write_file", { path, content }),
  handoff({ summary: `rewrote ${path}`, files_changed: [path] }),
];
const gateResults = (events: YoloEvent[]) => events.flatMap((e) => (e.type === "gate.result" && !e.gate.baseline ? [e.gate] : []));

describe.concurrent("revert and refix with the real runner, through the built binary", { timeout: 300_000 }, () => {
  for (const [runner, shape] of Object.entries(SHAPES)) {
    it(`${runner}: the wrong fix is sent back, the right one passes: exit 0, fixed, nothing regressed or missing`, async ({ expect, onTestFinished }) => {
      const code = (text: string) => (shape.esm ? text : cjs(text));
      const root = project(onTestFinished, {
        "package.json": JSON.stringify({ name: "cookie", version: "1.0.0", ...(shape.esm ? { type: "module" } : {}), scripts: { test: shape.script } }),
        ".gitignore": "node_modules\n",
        "src/parse.js": code(BAD),
        "test/parse.spec.js": shape.spec,
        "test/other.spec.js": shape.other,
        // The project helper's own test file, replaced by one of this project's.
        "test/add.test.js": shape.other.replaceAll('"one"', '"three"').replaceAll('"two"', '"four"'),
      });
      symlinkSync(repoModules(), join(root, "node_modules"));
      const dev = [...write("src/parse.js", code(WRONG)), ...write("src/parse.js", code(RIGHT))];
      const mock = await mockWith(
        onTestFinished,
        director({ analyst: [analystDone], pm: [pmDone(false)], dev, tea: [teaSays("PASS"), teaSays("PASS"), teaSays("PASS")] }),
      );
      const r = await runYolo(["run", "--ci", "--json", "--max-fix-attempts", "2", REQ], { cwd: root, baseURL: mock.url, timeoutMs: 280_000 });
      expect(r.exitCode, describeResult(r)).toBe(0);
      const events = parseEvents(r.stdout);
      const baseline = events.find((e) => e.type === "gate.result" && e.gate.baseline);
      expect(baseline?.type === "gate.result" && baseline.gate).toMatchObject({ passed: false });
      const runs = gateResults(events);
      // The wrong attempt was judged failing and blocked (a narrowed run, vitest related / jest --findRelatedTests,
      // names no baseline test in its scope, so its targets are listed only when the whole suite ran).
      expect(runs[0], describeResult(r)).toMatchObject({ passed: false, blocking: true });
      expect(runs[0].failedCount).toBe(2);
      if (runs[0].scope?.kind !== "changed") expect(runs[0].preExisting).toEqual(expect.arrayContaining(shape.targets));
      const last = runs[runs.length - 1];
      expect(last).toMatchObject({ passed: true, blocking: false });
      expect(last.fixed).toEqual(expect.arrayContaining(shape.targets));
      for (const g of runs) {
        expect(g.regressions ?? [], describeResult(r)).toEqual([]);
        expect(g.missing ?? []).toEqual([]);
      }
    });
  }
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GateRun } from "../../../src/gates/run-gates.js";
import { judged, type JsProject, jsProject, shown } from "../../helpers/js-runner-project.js";

// One generated jest project, states made by swapping files; the real jest through the real gate code in the sandbox.
const SPEC = `const { parse } = require("../src/parse.js");
describe("cookies", () => {
  describe("attrs", () => {
    it("parses a name", () => expect(parse("a=1").name).toBe("a"));
    it("parses a value", () => expect(parse("a=1").value).toBe("1"));
  });
  test.each([["b=2", "b"], ["c=3", "c"]])("names %s", (input, name) => expect(parse(input).name).toBe(name));
});
it("top level", () => expect(parse("x=y").value).toBe("y"));
`;
const OTHER = `it("one", () => expect(1).toBe(1));\nit("two", () => expect(2).toBe(2));\n`;
const PARSE_RIGHT = `exports.parse = (s) => { const [name, value] = s.split("="); return { name, value }; };\n`;
const PARSE_WRONG = `exports.parse = (s) => { const [name, value] = s.split("="); return { name, value: name }; };\n`;
const FLAKY = `jest.retryTimes(2);\nlet n = 0;\nit("flaky", () => { n++; expect(n).toBe(2); });\n`;
const SPEC_FILE = "test/parse.test.js";
const ALL = ["cookies > attrs > parses a name", "cookies > attrs > parses a value", "cookies > names b=2", "cookies > names c=3", "top level"].map(
  (n) => `${SPEC_FILE} > ${n}`,
);
const TARGETS = [`${SPEC_FILE} > cookies > attrs > parses a value`, `${SPEC_FILE} > top level`];
const OPAQUE = "true && jest";

let p: JsProject;
beforeAll(() => {
  p = jsProject("jest-matrix", {
    "package.json": JSON.stringify({ name: "m", scripts: { test: "jest" } }),
    "src/parse.js": PARSE_WRONG,
    [SPEC_FILE]: SPEC,
    "test/other.test.js": OTHER,
  });
});
afterAll(() => p.remove());

describe("jest, the real runner, read the way it counts", { timeout: 240_000 }, () => {
  let structuredRed: GateRun;
  let printedRed: GateRun;
  let green: GateRun;

  it("npm test (--json report beside the default output) and an opaque command: red, then green: fixed, nothing missing", async () => {
    structuredRed = await p.gate("npm test");
    expect(structuredRed.result.reading, shown(structuredRed)).toBe("structured");
    expect(structuredRed.outputs?.[0]).toContain("Tests:");
    expect(structuredRed.outputs?.[0]).not.toMatch(/yolo-report|results written/i);
    printedRed = await p.gate(OPAQUE);
    expect(printedRed.result.reading).toBe("parsed");
    // jest's default output with several files names only the failing tests.
    expect(printedRed.tests?.map((t) => t.id).sort()).toEqual([...TARGETS].sort());
    p.write({ "src/parse.js": PARSE_RIGHT });
    green = await p.gate("npm test");
    expect(judged(structuredRed, green)).toMatchObject({ fixed: TARGETS, regressions: [], missing: [], blocking: false });
    const printedGreen = await p.gate(OPAQUE);
    expect(printedGreen.outputs?.[0]).toMatch(/PASS test\/parse\.test\.js/);
    expect(judged(printedRed, printedGreen), shown(printedGreen)).toMatchObject({ fixed: TARGETS, regressions: [], missing: [], blocking: false });
    const verbose = await p.gate(`${OPAQUE} --verbose`);
    expect(judged(printedRed, verbose), shown(verbose)).toMatchObject({ regressions: [], missing: [], blocking: false });
  });

  it("a file that fails to import fails every test of it the baseline knew; a skipped one that passed blocks", async () => {
    p.write({ [SPEC_FILE]: `require("./nope.js");\n${SPEC}` });
    const broken = await p.gate("npm test");
    expect(judged(green, broken), shown(broken)).toMatchObject({ regressions: ALL, missing: [], blocking: true });
    p.write({ [SPEC_FILE]: SPEC.replace('it("top level"', 'it.skip("top level"') });
    const skipped = await p.gate(OPAQUE);
    const j = judged(green, skipped);
    expect(j.blocking, shown(skipped)).toBe(true);
    expect(j.missing).toContain(`${SPEC_FILE} > top level`);
    p.write({ [SPEC_FILE]: SPEC });
  });

  it("a test retried to a pass (jest.retryTimes) passes and is named flaky; a timeout fails", async () => {
    p.write({ "test/flaky.test.js": FLAKY });
    const retried = await p.gate("npm test");
    expect(retried.result.passed, shown(retried)).toBe(true);
    expect(judged(green, retried)).toMatchObject({ flaky: ["test/flaky.test.js > flaky"], regressions: [], blocking: false });
    p.write({
      "test/flaky.test.js": null,
      "test/other.test.js": OTHER.replace('it("two", () => expect(2).toBe(2))', 'it("two", () => new Promise((r) => setTimeout(r, 3000)))'),
    });
    const slow = await p.gate("npx jest --testTimeout=300");
    expect(judged(green, slow), shown(slow)).toMatchObject({ regressions: ["test/other.test.js > two"], blocking: true });
    p.write({ "test/other.test.js": OTHER });
  });
});

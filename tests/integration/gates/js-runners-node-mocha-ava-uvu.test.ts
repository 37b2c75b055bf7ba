import { afterAll, describe, expect, it } from "vitest";
import { judged, type JsProject, jsProject, shown } from "../../helpers/js-runner-project.js";

// One generated project per runner, states made by swapping the code under test; the real runner through the real
// gate code in the sandbox, each state judged against another taken as the baseline.
const PARSE_RIGHT = `exports.parse = (s) => { const [name, value] = s.split("="); return { name, value }; };\n`;
const PARSE_WRONG = `exports.parse = (s) => { const [name, value] = s.split("="); return { name, value: name }; };\n`;
const projects: JsProject[] = [];
afterAll(() => {
  for (const p of projects) p.remove();
});
function project(name: string, files: Record<string, string>): JsProject {
  const p = jsProject(name, { "src/parse.js": PARSE_WRONG, ...files });
  projects.push(p);
  return p;
}

const NODE_SPEC = `const { describe, it, test } = require("node:test");
const assert = require("node:assert");
const { parse } = require("../src/parse.js");
describe("cookies", () => {
  describe("attrs", () => {
    it("parses a name", () => assert.equal(parse("a=1").name, "a"));
    it("parses a value", () => assert.equal(parse("a=1").value, "1"));
  });
  for (const [input, name] of [["b=2", "b"], ["c=3", "c"]]) test(\`names \${input}\`, () => assert.equal(parse(input).name, name));
});
it("top level", () => assert.equal(parse("x=y").value, "y"));
`;
const NODE_TARGETS = ["cookies > attrs > parses a value", "top level"];

describe("node --test, the real runner", { timeout: 240_000 }, () => {
  it("structured (junit beside spec) and printed (TAP, spec): red, then green: fixed; a skip blocks; a timeout fails", async () => {
    const p = project("node-matrix", {
      "package.json": JSON.stringify({ name: "m", scripts: { test: "node --test test/" } }),
      "test/parse.test.js": NODE_SPEC,
    });
    const red = await p.gate("npm test");
    expect(red.result.reading, shown(red)).toBe("structured");
    const tapRed = await p.gate("true && node --test test/");
    expect(tapRed.result.reading).toBe("parsed");
    p.write({ "src/parse.js": PARSE_RIGHT });
    const green = await p.gate("npm test");
    // The user sees the spec reporter's output, not TAP.
    expect(green.outputs?.[0]).toMatch(/✔ top level/);
    expect(judged(red, green)).toMatchObject({ fixed: NODE_TARGETS, regressions: [], missing: [], blocking: false });
    for (const command of ["true && node --test test/", "true && node --test --test-reporter=spec test/"]) {
      const now = await p.gate(command);
      expect(judged(tapRed, now), shown(now)).toMatchObject({ fixed: NODE_TARGETS, regressions: [], missing: [], blocking: false });
    }
    p.write({ "test/parse.test.js": NODE_SPEC.replace('it("top level"', 'it.skip("top level"') });
    expect(judged(green, await p.gate("npm test"))).toMatchObject({ missing: ["top level"], blocking: true });
    p.write({
      "test/parse.test.js": NODE_SPEC.replace(/it\("top level".*\n/, 'it("top level", { timeout: 200 }, () => new Promise((r) => setTimeout(r, 3000)));\n'),
    });
    expect(judged(green, await p.gate("npm test"))).toMatchObject({ regressions: ["top level"], blocking: true });
    // A file that does not load: node names no file in its tests' ids, so they are missing (and block) and the file fails.
    p.write({ "test/parse.test.js": `require("./nope.js");\n${NODE_SPEC}` });
    const broken = judged(green, await p.gate("npm test"));
    expect(broken).toMatchObject({ newFailures: ["test/parse.test.js"], blocking: true });
  });
});

const MOCHA_SPEC = `const assert = require("node:assert");
const { parse } = require("../src/parse.js");
describe("cookies", function () {
  describe("attrs", function () {
    it("parses a name", () => assert.equal(parse("a=1").name, "a"));
    it("parses a value", () => assert.equal(parse("a=1").value, "1"));
  });
});
let n = 0;
it("flaky", function () { this.retries(2); n++; assert.equal(n, 2); });
it("top level", () => assert.equal(parse("x=y").value, "y"));
`;

describe("mocha, the real runner", { timeout: 240_000 }, () => {
  it("spec: red, then green (a retried test passes); dot (counts only) passes too; a pending test that passed blocks", async () => {
    const p = project("mocha-matrix", { "package.json": JSON.stringify({ name: "m", scripts: { test: "mocha" } }), "test/parse.test.js": MOCHA_SPEC });
    const red = await p.gate("npm test");
    expect(
      red.tests
        ?.filter((t) => t.status === "failed")
        .map((t) => t.id)
        .sort(),
      shown(red),
    ).toEqual(["parses a value", "top level"]);
    p.write({ "src/parse.js": PARSE_RIGHT });
    const green = await p.gate("npm test");
    expect(judged(red, green), shown(green)).toMatchObject({ fixed: ["top level", "parses a value"], regressions: [], missing: [], blocking: false });
    const dot = await p.gate("npx mocha --reporter=dot");
    expect(judged(red, dot), shown(dot)).toMatchObject({ regressions: [], missing: [], blocking: false });
    p.write({ "test/parse.test.js": MOCHA_SPEC.replace('it("top level"', 'it.skip("top level"') });
    expect(judged(green, await p.gate("npm test"))).toMatchObject({ missing: ["top level"], blocking: true });
  });
});

const AVA_SPEC = `const test = require("ava");
const { parse } = require("../src/parse.js");
test("parses a name", (t) => t.is(parse("a=1").name, "a"));
test("parses a value", (t) => t.is(parse("a=1").value, "1"));
test("top level", (t) => t.is(parse("x=y").value, "y"));
`;

describe("ava, the real runner", { timeout: 240_000 }, () => {
  it("default and TAP: red, then green: fixed; a skipped test that passed blocks", async () => {
    const p = project("ava-matrix", {
      "package.json": JSON.stringify({ name: "m", scripts: { test: "ava" } }),
      "test/parse.test.js": AVA_SPEC,
      "test/other.test.js": 'const test = require("ava");\ntest("one", (t) => t.pass());\n',
    });
    const red = await p.gate("npm test");
    expect(red.result.reading, shown(red)).toBe("parsed");
    p.write({ "src/parse.js": PARSE_RIGHT });
    const green = await p.gate("npm test");
    const targets = ["parse › parses a value", "parse › top level"];
    expect(judged(red, green), shown(green)).toMatchObject({ fixed: targets, regressions: [], missing: [], blocking: false });
    const tap = await p.gate("npx ava --tap");
    expect(judged(red, tap), shown(tap)).toMatchObject({ fixed: targets, regressions: [], missing: [], blocking: false });
    p.write({ "test/parse.test.js": AVA_SPEC.replace('test("top level"', 'test.skip("top level"') });
    expect(judged(green, await p.gate("npm test"))).toMatchObject({ missing: ["parse › top level"], blocking: true });
  });
});

const UVU_SPEC = `const { test } = require("uvu");
const assert = require("uvu/assert");
const { parse } = require("../src/parse.js");
test("parses a name", () => assert.is(parse("a=1").name, "a"));
test("parses a value", () => assert.is(parse("a=1").value, "1"));
test("top level", () => assert.is(parse("x=y").value, "y"));
test.run();
`;

describe("uvu, the real runner", { timeout: 240_000 }, () => {
  it("red (failures named), then green (each file a count only): fixed, nothing missing; a file with fewer tests run blocks", async () => {
    const p = project("uvu-matrix", { "package.json": JSON.stringify({ name: "m", scripts: { test: "uvu tests" } }), "tests/parse.js": UVU_SPEC });
    const red = await p.gate("npm test");
    expect(
      red.tests?.map((t) => t.id),
      shown(red),
    ).toEqual(["parse.js > parses a value", "parse.js > top level"]);
    p.write({ "src/parse.js": PARSE_RIGHT });
    const green = await p.gate("npm test");
    expect(judged(red, green), shown(green)).toMatchObject({
      fixed: ["parse.js > parses a value", "parse.js > top level"],
      regressions: [],
      missing: [],
      blocking: false,
    });
    p.write({ "src/parse.js": PARSE_WRONG, "tests/parse.js": UVU_SPEC.replace('test("top level"', 'test.skip("top level"') });
    const skipped = judged(red, await p.gate("npm test"));
    expect(skipped).toMatchObject({ missing: ["parse.js > top level"], blocking: true });
  });
});

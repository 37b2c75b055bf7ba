import { afterAll, describe, expect, it } from "vitest";
import { judged, type JsProject, jsProject, shown } from "../../helpers/js-runner-project.js";

// ava's default reporter writes a failed test's line as `✘ [fail]: <title> <error message>` (ava 4: `✖ <title>
// <message>`), a known failure as `✔ [expected fail] <title>` and one that passed after all as
// `✘ [unexpected pass]: <title> <message>`. A test's id must be its title alone: with the message in it, a test whose
// message changes between two runs (an assertion's own words naming the value it got, a thrown error) reads as one
// test gone and another new, and a fixed one as "new passing" next to a missing one.
const parser = (value: string) => `exports.parse = (s) => { const [name] = s.split("="); return { name, value: ${value} }; };\n`;
const SPEC = `const test = require("ava");
const { parse } = require("../src/parse.js");
test("parses a value", (t) => t.is(parse("a=1").value, "1"));
test("says what it got", (t) => t.true(parse("x=y").value === "y", "the value was " + parse("x=y").value));
test("throws on nothing", (t) => { if (parse("k=v").value !== "v") throw new Error("no value for " + parse("k=v").value); t.pass(); });
test.failing("a known bug", (t) => t.is(parse("a=b=c").value, "b=c"));
`;
const TITLES = ["parses a value", "says what it got", "throws on nothing"].map((t) => `parse › ${t}`);

const projects: JsProject[] = [];
afterAll(() => {
  for (const p of projects) p.remove();
});

describe("ava's failure lines, the real runner", { timeout: 240_000 }, () => {
  it("a failed test is named by its title alone: still failing with new words is pre-existing; fixed is fixed; an unexpected pass is a regression", async () => {
    const p = jsProject("ava-failures", {
      "package.json": JSON.stringify({ name: "m", scripts: { test: "ava" } }),
      "src/parse.js": parser('"wrong"'),
      "test/parse.test.js": SPEC,
      "test/other.test.js": 'const test = require("ava");\ntest("one", (t) => t.pass());\n',
    });
    projects.push(p);
    const red = await p.gate("npm test");
    expect(red.result.reading, shown(red)).toBe("parsed");
    const failing = (red.tests ?? []).filter((t) => t.status === "failed").map((t) => t.id);
    expect(failing.sort(), shown(red)).toEqual(TITLES);
    expect(red.tests?.find((t) => t.id === "parse › a known bug")?.status, shown(red)).toBe("passed");

    p.write({ "src/parse.js": parser('"other"') });
    const stillRed = await p.gate("npm test");
    expect(judged(red, stillRed), shown(stillRed)).toMatchObject({ preExisting: TITLES, fixed: [], missing: [], newFailures: [], regressions: [] });

    p.write({ "src/parse.js": `exports.parse = (s) => { const i = s.indexOf("="); return { name: s.slice(0, i), value: s.slice(i + 1) }; };\n` });
    const green = await p.gate("npm test");
    expect(judged(red, green), shown(green)).toMatchObject({
      fixed: TITLES,
      missing: [],
      newFailures: [],
      regressions: ["parse › a known bug"],
      blocking: true,
    });
  });
});

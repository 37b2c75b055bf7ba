import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { judged, type JsProject, jsProject, shown } from "../../helpers/js-runner-project.js";

// One generated vitest project, its states made by swapping files; the real vitest through the real gate code in the
// sandbox. Each case judges one state against another taken as the baseline.
const SPEC = (subsFixed: boolean, extra = "") => `import { describe, it, expect, test } from "vitest";
import { parse } from "../src/parse.js";
describe("cookies", () => {
  describe("attrs", () => {
    it("parses a name", () => expect(parse("a=1").name).toBe("a"));
    it("parses a value", () => expect(parse("a=1").value).toBe("1"));
  });
  test.each([["b=2", "b"], ["c=3", "c"]])("names %s", (input, name) => expect(parse(input).name).toBe(name));
});
it("top level", () => expect(parse("x=${subsFixed ? "y" : "z"}").value).toBe("y"));
${extra}`;
const OTHER = `import { it, expect } from "vitest";\nit("one", () => expect(1).toBe(1));\nit("two", () => expect(2).toBe(2));\n`;
const PARSE_RIGHT = `export function parse(s) { const [name, value] = s.split("="); return { name, value }; }\n`;
const PARSE_WRONG = `export function parse(s) { const [name, value] = s.split("="); return { name, value: name }; }\n`;
const SLOW = `import { it, expect } from "vitest";\nit("one", () => expect(1).toBe(1));\nit("two", async () => { await new Promise((r) => setTimeout(r, 3000)); });\n`;
const FLAKY = `import { it, expect } from "vitest";\nlet n = 0;\nit("flaky", () => { n++; expect(n).toBe(2); });\n`;

let p: JsProject;
beforeAll(() => {
  p = jsProject("vitest-matrix", {
    "package.json": JSON.stringify({ name: "m", type: "module", scripts: { test: "vitest run" } }),
    "src/parse.js": PARSE_RIGHT,
    "test/parse.spec.js": SPEC(true),
    "test/other.spec.js": OTHER,
  });
});
afterAll(() => p.remove());

const SPEC_FILE = "test/parse.spec.js";
const ALL = ["cookies > attrs > parses a name", "cookies > attrs > parses a value", "cookies > names b=2", "cookies > names c=3", "top level"].map(
  (name) => `${SPEC_FILE} > ${name}`,
);
const failing = (run: { tests: Array<{ id: string; status: string }> | null }) => run.tests?.filter((t) => t.status === "failed").map((t) => t.id) ?? [];
const OPAQUE = "true && vitest run";

describe("vitest, the real runner, read the way it counts", { timeout: 180_000 }, () => {
  let green: Awaited<ReturnType<JsProject["gate"]>>;

  it("npm test (structured report beside the default output): red at the baseline, green now: fixed, nothing regressed or missing", async () => {
    p.write({ "src/parse.js": PARSE_WRONG });
    const base = await p.gate("npm test");
    expect(base.result.reading, shown(base)).toBe("structured");
    // The user's output, not yolo's: vitest's "JSON report written to <yolo's folder>" is not in it.
    expect(base.outputs?.[0]).toContain("Test Files");
    expect(base.outputs?.[0]).not.toMatch(/yolo-report|report written/i);
    expect(failing(base)).toEqual([`${SPEC_FILE} > cookies > attrs > parses a value`, `${SPEC_FILE} > top level`]);
    p.write({ "src/parse.js": PARSE_RIGHT });
    green = await p.gate("npm test");
    expect(green.result.passed, shown(green)).toBe(true);
    // The user sees vitest's default output (a green file is one line), not the verbose one.
    expect(green.outputs?.[0]).toMatch(/✓ test\/parse\.spec\.js \(5 tests\)/);
    expect(judged(base, green)).toMatchObject({
      fixed: [`${SPEC_FILE} > cookies > attrs > parses a value`, `${SPEC_FILE} > top level`],
      regressions: [],
      missing: [],
      blocking: false,
    });
  });

  it("an opaque command (parsed default output): the failing file printed in full, then one green line: fixed, nothing missing", async () => {
    p.write({ "src/parse.js": PARSE_WRONG });
    const base = await p.gate(OPAQUE);
    expect(base.result.reading, shown(base)).toBe("parsed");
    expect(failing(base)).toEqual(expect.arrayContaining([`${SPEC_FILE} > cookies > attrs > parses a value`, `${SPEC_FILE} > top level`]));
    p.write({ "src/parse.js": PARSE_RIGHT });
    const now = await p.gate(OPAQUE);
    expect(now.outputs?.[0]).toMatch(/✓ test\/parse\.spec\.js \(5 tests\)/);
    const j = judged(base, now);
    expect(j, shown(now)).toMatchObject({ regressions: [], missing: [], newFailures: [], blocking: false });
    expect(j.fixed).toEqual(expect.arrayContaining([`${SPEC_FILE} > cookies > attrs > parses a value`, `${SPEC_FILE} > top level`]));
    // The same green suite under the reporters a user may pick: dot (counts only) and verbose (every test).
    for (const reporter of ["dot", "verbose"]) {
      const other = await p.gate(`${OPAQUE} --reporter=${reporter}`);
      expect(judged(base, other), `${reporter}: ${shown(other)}`).toMatchObject({ regressions: [], missing: [], blocking: false });
    }
  });

  it("a file that fails to import fails every test of it the baseline knew (structured and parsed)", async () => {
    p.write({ [SPEC_FILE]: `import "./nope.js";\n${SPEC(true)}` });
    const structured = await p.gate("npm test");
    expect(judged(green, structured)).toMatchObject({ regressions: ALL, missing: [], blocking: true });
    const printed = await p.gate(OPAQUE);
    expect(judged(green, printed), shown(printed)).toMatchObject({ regressions: ALL, missing: [], blocking: true });
    p.write({ [SPEC_FILE]: SPEC(true) });
  });

  it("a test skipped or todo now that passed at the baseline blocks, summarized or listed", async () => {
    p.write({ [SPEC_FILE]: SPEC(true).replace('it("top level"', 'it.skip("top level"') });
    const printed = await p.gate(OPAQUE);
    expect(printed.outputs?.[0]).toMatch(/\(5 tests \| 1 skipped\)/);
    const j = judged(green, printed);
    expect(j.blocking, shown(printed)).toBe(true);
    expect(j.missing).toContain(`${SPEC_FILE} > top level`);
    p.write({ [SPEC_FILE]: SPEC(true).replace('it("top level"', 'it.todo("top level"') });
    const structured = await p.gate("npm test");
    expect(judged(green, structured)).toMatchObject({ missing: [`${SPEC_FILE} > top level`], blocking: true });
    p.write({ [SPEC_FILE]: SPEC(true) });
  });

  it("a test retried to a pass (--retry) passes and is named flaky; a timeout fails", async () => {
    p.write({ "test/flaky.spec.js": FLAKY });
    const retried = await p.gate("npx vitest run --retry=2");
    expect(retried.result.passed, shown(retried)).toBe(true);
    const j = judged(green, retried);
    expect(j).toMatchObject({ flaky: ["test/flaky.spec.js > flaky"], regressions: [], blocking: false });
    expect(j.findings.join("\n")).toMatch(/flaky/);
    p.write({ "test/flaky.spec.js": null, "test/other.spec.js": SLOW });
    const slow = await p.gate("npx vitest run --testTimeout=300");
    expect(judged(green, slow), shown(slow)).toMatchObject({ regressions: ["test/other.spec.js > two"], blocking: true });
    p.write({ "test/other.spec.js": OTHER });
  });
});

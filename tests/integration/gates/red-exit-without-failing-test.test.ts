import { afterAll, describe, expect, it } from "vitest";
import { judged, type JsProject, jsProject, shown } from "../../helpers/js-runner-project.js";

// A runner can exit red with every test passing: a coverage threshold not met (jest's `coverageThreshold`, vitest's
// `thresholds`), a step chained after the tests. The gate blocks, as the exit says, and says why in the runner's own
// words: a dev told only "gate failed" next to a list of passing tests has nothing to fix.
const SOURCE = (extra: string) => `exports.a = (x) => { if (x > 100) { return "big"; }${extra} return x + 1; };\n`;
const TEST = 'const { a } = require("../src/a.js");\ntest("adds", () => expect(a(1)).toBe(2));\ntest("big", () => expect(a(101)).toBe("big"));\n';

const projects: JsProject[] = [];
afterAll(() => {
  for (const p of projects) p.remove();
});

describe("a red exit with no failing test, the real jest", { timeout: 240_000 }, () => {
  it("a coverage threshold not met blocks, and the finding quotes the runner's reason", async () => {
    const p = jsProject("red-exit", {
      "package.json": JSON.stringify({ name: "m", scripts: { test: "jest --coverage" }, jest: { coverageThreshold: { global: { statements: 90 } } } }),
      "src/a.js": SOURCE(""),
      "test/a.test.js": TEST,
    });
    projects.push(p);
    const green = await p.gate("npm test");
    expect(green.result.passed, shown(green)).toBe(true);
    p.write({ "src/a.js": SOURCE(' if (x < -100) { return "small"; }') });
    const red = await p.gate("npm test");
    expect(red.result.exitCode, shown(red)).not.toBe(0);
    const verdict = judged(green, red);
    expect(verdict, shown(red)).toMatchObject({ regressions: [], newFailures: [], missing: [], blocking: true });
    expect(verdict.findings.join("\n")).toMatch(/exited 1 with no failing test.*statements.*threshold \(90%\)/);
  });
});

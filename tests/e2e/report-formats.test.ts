import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { describeResult, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, BAD_ADD, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { mockWith } from "../helpers/per-test.js";
import { makeProject } from "../helpers/project.js";
import { findAll, parseXml } from "../helpers/xml.js";

const REQ = "Add an add(a, b) function to src/add.js";
const PRICED = "export default { model: { price: { inputPerMillion: 0.15, outputPerMillion: 0.6 } } };\n";

describe("yolo report and yolo show --diff on a finished thread", { timeout: 240_000 }, () => {
  it("markdown for a job summary, JUnit a CI system can parse, and the diff since the start commit", async () => {
    const project = makeProject({ "yolo.config.ts": PRICED });
    onTestFinished(project.cleanup);
    const mock = await mockWith(
      onTestFinished,
      director({
        analyst: [analystDone],
        pm: [pmDone(false)],
        dev: [...devWrites(BAD_ADD), ...devWrites(GOOD_ADD)],
        tea: [teaSays("FAIL", ["subtracts"]), teaSays("PASS")],
      }),
    );
    const cwd = project.root;
    const run = await runYolo(["run", "--ci", "--json", REQ], { cwd, baseURL: mock.url });
    expect(run.exitCode, describeResult(run)).toBe(0);
    const thread = threadIdFrom(run.stdout);

    const md = await runYolo(["report", thread, "--format", "markdown"], { cwd });
    expect(md.exitCode, describeResult(md)).toBe(0);
    expect(md.stdout).toMatch(new RegExp(`^## ✅ yolo passed — thread \`${thread}\`\\n\\n> ${REQ.replace(/[()]/g, "\\$&")}\\n`));
    expect(md.stdout).toContain("- **Add numbers** — as developer, I want an add(a, b) function, so that I can sum two numbers");
    expect(md.stdout).toContain("| `src/add.js` | 3 | 0 |");
    // The first attempt blocked (new failures): the row says blocked, with what changed since the baseline.
    expect(md.stdout).toMatch(
      /\| 1 \| test \| `npm test` \| ⛔ blocked \(failed, exit 1\) \| 0 passed, 2 failed · structured report \| new, failing: adds two numbers; adds negatives · fixed: test\/add\.test\.js \|/,
    );
    expect(md.stdout).toMatch(/\| 2 \| test \| `npm test` \| ✅ passed \| 2 passed, 0 failed · structured report \| fixed: test\/add\.test\.js \|/);
    expect(md.stdout).toContain("Verdict of the test architect: **PASS**");
    expect(md.stdout).toMatch(/\| \*\*total\*\* \| \*\*8\*\* \|/);
    expect(md.stdout).toMatch(/Cost: \*\*[0-9.e-]+ USD\*\* at 0\.15 \/ 0\.6 USD per million/);

    const out = await runYolo(["report", thread, "--format", "junit", "--output", "reports/junit.xml"], { cwd });
    expect(out.exitCode, describeResult(out)).toBe(0);
    expect(out.stdout).toBe("");
    const xml = parseXml(readFileSync(join(cwd, "reports/junit.xml"), "utf8"));
    // A CI test viewer sees the tests in their final state, not the gate: the file that failed to load at the
    // baseline now loads, and its two tests pass.
    expect(xml.attrs).toMatchObject({ tests: "3", failures: "0" });
    const suites = findAll(xml, "testsuite");
    expect(suites.map((s) => s.attrs.name)).toEqual(["yolo gate test"]);
    expect(findAll(xml, "testcase").map((c) => [c.attrs.classname, c.attrs.name])).toEqual([
      ["test", "test/add.test.js"],
      ["test", "adds two numbers"],
      ["test", "adds negatives"],
    ]);
    expect(findAll(xml, "failure")).toEqual([]);
    // Each attempt stays in the suite's properties, the first one blocked with why.
    const attempts = findAll(suites[0], "property").filter((p) => p.attrs.name.startsWith("yolo.attempt."));
    expect(attempts.map((p) => p.attrs.value)).toEqual([
      "blocked: new, failing: adds two numbers; adds negatives | fixed: test/add.test.js",
      "passed: fixed: test/add.test.js | new, passing: adds two numbers; adds negatives",
    ]);

    const diff = await runYolo(["show", thread, "--diff"], { cwd });
    expect(diff.exitCode, describeResult(diff)).toBe(0);
    expect(diff.stdout).toMatch(/ src\/add\.js +\| +3 \+/);
    expect(diff.stdout).toContain("+++ b/src/add.js");
    expect(diff.stdout).toContain("+  return a + b;");
  });

  it("refuses an unknown format and an unknown thread with exit 2", async () => {
    const project = makeProject();
    onTestFinished(project.cleanup);
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    const run = await runYolo(["run", "--ci", "--json", REQ], { cwd: project.root, baseURL: mock.url });
    const thread = threadIdFrom(run.stdout);
    const xml = await runYolo(["report", thread, "--format", "xml"], { cwd: project.root });
    expect(xml.exitCode, describeResult(xml)).toBe(2);
    expect(xml.stderr).toContain('Unknown report format "xml"; use markdown or junit.');
    const unknown = await runYolo(["report", "nosuch00"], { cwd: project.root });
    expect(unknown.exitCode, describeResult(unknown)).toBe(2);
    expect(unknown.stderr).toContain("yolo threads");
    const md = await runYolo(["report", thread], { cwd: project.root });
    expect(md.stdout).toContain("Cost: not computed, tokens only");
  });
});

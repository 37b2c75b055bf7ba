import { describe, it } from "vitest";
import { describeResult, parseEvents, runYolo } from "../helpers/cli.js";
import { analystDone, call, director, GOOD_ADD, handoff, pmDone, teaSays, type Turn } from "../helpers/director.js";
import { probeBwrap } from "../../src/exec/sandbox.js";
import { mockWith, project } from "../helpers/per-test.js";

// A project whose `lint` script (detected: no yolo.config.ts) is red before the run: a small linter that flags every
// `var`, with one already in src/old.js. The task is add(); nobody asked for the lint to be fixed.
const LINT = `import { readdirSync, readFileSync } from "node:fs";
let found = 0;
for (const f of readdirSync("src").sort()) {
  readFileSync("src/" + f, "utf8").split("\\n").forEach((line, i) => {
    if (/\\bvar\\b/.test(line)) { found++; console.log("src/" + f + ":" + (i + 1) + ":" + (line.indexOf("var") + 1) + "  no-var  use let or const"); }
  });
}
console.log(found + " problem" + (found === 1 ? "" : "s"));
process.exit(found ? 1 : 0);
`;
const FILES = {
  "package.json": JSON.stringify({ name: "demo", version: "1.0.0", type: "module", scripts: { test: "node --test test/", lint: "node lint.mjs" } }),
  "lint.mjs": LINT,
  "src/old.js": "export const kept = 1;\nvar legacy = 2;\nexport { legacy };\n",
};
const VAR_ADD = "export function add(a, b) {\n  var sum = a + b;\n  return sum;\n}\n";
const writes = (content: string): Turn[] => [
  call("write_file", { path: "src/add.js", content }),
  handoff({ summary: "wrote add", files_changed: ["src/add.js"] }),
];
const script = (dev: Turn[]) => director({ analyst: [analystDone], pm: [pmDone(false)], dev, tea: [teaSays("PASS"), teaSays("PASS")] });
const lintResults = (stdout: string) =>
  parseEvents(stdout).flatMap((e) => (e.type === "gate.result" && e.gate.name === "lint" && !e.gate.baseline ? [e.gate] : []));

describe("a detected lint red at the baseline", { timeout: 240_000 }, () => {
  it("does not block a correct fix that adds no finding: exit 0, reported as red at the baseline", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, FILES);
    const mock = await mockWith(onTestFinished, script(writes(GOOD_ADD)));
    const r = await runYolo(["run", "--ci", "--json", "Add add()"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const done = parseEvents(r.stdout).findLast((e) => e.type === "run.completed");
    expect(done?.type === "run.completed" && done.reason).toMatch(
      /^completed: 1\/2 gates passed \(fixed: [^)]+\) \(lint: red at the baseline, no new findings\), verdict PASS$/,
    );
    const [lint, ...more] = lintResults(r.stdout);
    expect(more).toEqual([]);
    expect(lint).toMatchObject({ passed: false, required: false, blocking: false, findings: ["red at the baseline, no new findings"] });
  });

  it("sends dev back when its change adds a lint finding, naming it; fixed, the run passes", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, FILES);
    const mock = await mockWith(onTestFinished, script([...writes(VAR_ADD), ...writes(GOOD_ADD)]));
    const r = await runYolo(["run", "--ci", "--json", "Add add()"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const [first, second] = lintResults(r.stdout);
    expect(first).toMatchObject({ passed: false, blocking: true });
    expect(first?.findings).toContain("new finding: src/add.js:#:# no-var use let or const");
    expect(second).toMatchObject({ blocking: false, findings: ["red at the baseline, no new findings"] });
    // dev's fix prompt named the finding its change added.
    const fix = mock.requests.find((q) => JSON.stringify(q.body).includes("Fix attempt 1"));
    expect(JSON.stringify(fix?.body)).toContain("new finding: src/add.js:#:# no-var use let or const");
    // It blocks, so it is not shown to dev as optional.
    expect(JSON.stringify(fix?.body)).toContain("### lint: `npm run lint` FAILED (exit 1)");
  });

  // A lint whose tool writes a cache outside the project, which the sandbox keeps read-only: the environment, not the code.
  it.runIf(probeBwrap(process.env.PATH).available)("broken by its environment at the baseline does not stop the run", async ({ expect, onTestFinished }) => {
    const cache = `import { writeFileSync } from "node:fs";\nwriteFileSync("/var/tmp/yolo-lint-env-cache", "");\n`;
    const pkg = JSON.stringify({
      name: "demo",
      version: "1.0.0",
      type: "module",
      scripts: { test: "node --test test/", lint: "node cache.mjs && node lint.mjs" },
    });
    const root = project(onTestFinished, { ...FILES, "package.json": pkg, "cache.mjs": cache });
    const mock = await mockWith(onTestFinished, script(writes(GOOD_ADD)));
    const r = await runYolo(["run", "--ci", "--json", "Add add()"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const baseline = parseEvents(r.stdout).find((e) => e.type === "gate.result" && e.gate.baseline && e.gate.name === "lint");
    expect(baseline?.type === "gate.result" && baseline.gate.environment?.kind).toBe("read-only");
    expect(parseEvents(r.stdout).some((e) => e.type === "warning" && /optional gate lint failed because of its environment/.test(e.message))).toBe(true);
    expect(lintResults(r.stdout)).toMatchObject([{ passed: false, blocking: false, findings: ["red at the baseline, no new findings"] }]);
  });
});

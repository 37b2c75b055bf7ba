import { execa } from "execa";
import { describe, it } from "vitest";
import { describeResult, runYolo } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const MODULES = fileURLToPath(new URL("../../node_modules", import.meta.url));

// What each tool prints when it is pointed at the project after a real run: nothing of yolo's may appear.
async function tool(root: string, file: string, args: string[]) {
  return execa(file, args, { cwd: root, reject: false, all: true, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" }, extendEnv: false });
}

describe("yolo's state after a real run", { timeout: 180_000 }, () => {
  it("is invisible to prettier, eslint, pytest and go vet", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, {
      "eslint.config.js": "export default [{ rules: { 'no-unused-vars': 'error' } }];\n",
      "go.mod": "module demo\n\ngo 1.19\n",
      "demo.go": "package demo\n\nfunc Two() int { return 2 }\n",
      "src/unused.js": "const unused = 1;\n",
      "test_demo.py": "def test_two():\n    assert 1 + 1 == 2\n",
    });
    symlinkSync(MODULES, join(root, "node_modules"));
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    const r = await runYolo(["run", "--ci", "--test-cmd", "npm test", "Add add()"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const prettier = await tool(root, join(MODULES, ".bin/prettier"), ["--check", "."]);
    const eslint = await tool(root, join(MODULES, ".bin/eslint"), ["."]);
    const pytest = await tool(root, "pytest", ["--collect-only", "-q"]);
    const vet = await tool(root, "go", ["vet", "./..."]);
    // The run really wrote its thread's records, logs and database there.
    const own = (await execa("find", [".yolo", "-type", "f"], { cwd: root })).stdout;
    expect(own).toMatch(/gate-baseline/);
    expect(own).toMatch(/yolo\.db/);
    for (const out of [prettier, eslint, pytest, vet]) expect(out.all).not.toContain(".yolo");
    // And each tool really ran: prettier flags the project's own unformatted file, eslint its unused variable.
    expect(prettier.all).toContain("package.json");
    expect(eslint.all).toMatch(/unused/);
    expect(pytest.all).toContain("test_demo.py::test_two");
    expect(vet.exitCode).toBe(0);
  });
});

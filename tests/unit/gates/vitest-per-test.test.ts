import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runGatesWithTests } from "../../../src/gates/run-gates.js";
import { repoModules } from "../../helpers/repo-modules.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("per-test results from a vitest project's `npm test`", { timeout: 240_000 }, () => {
  it("runs the real vitest and reads every test from its JSON report, passing ones included", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "yolo-vitest-")));
    dirs.push(root);
    const files: Record<string, string> = {
      "package.json": JSON.stringify({ name: "v", type: "module", scripts: { test: "vitest run" } }),
      "test/math.test.js":
        'import { describe, it, expect } from "vitest";\ndescribe("math", () => {\n  it("adds", () => expect(1 + 1).toBe(2));\n  it("subtracts", () => expect(2 - 1).toBe(0));\n  it.skip("later", () => {});\n});\n',
    };
    for (const [rel, content] of Object.entries(files)) {
      mkdirSync(dirname(join(root, rel)), { recursive: true });
      writeFileSync(join(root, rel), content);
    }
    symlinkSync(repoModules(), join(root, "node_modules"));
    const [run] = await runGatesWithTests([{ name: "test", command: "npm test", required: true, timeoutS: 120 }], {
      root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, CI: "1" },
      capBytes: 100_000,
      attempt: 1,
      logDir: join(root, ".yolo", "gates"),
    });
    expect(run.result).toMatchObject({ command: "npm test", passed: false, tests: 3, reading: "structured" });
    expect(run.tests).toEqual([
      { id: "test/math.test.js > math > adds", status: "passed" },
      { id: "test/math.test.js > math > subtracts", status: "failed" },
      { id: "test/math.test.js > math > later", status: "skipped" },
    ]);
  });
});

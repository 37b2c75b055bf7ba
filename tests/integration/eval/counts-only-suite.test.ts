import { mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSuite } from "../../../src/eval/suite.js";
import { HOST_SUITE } from "../../helpers/eval-build-repo.js";

// An eval needs each test by name. A gate yolo does not recognise as one runner's (jshttp/content-type's `npm test`
// is `ts-scripts test`: tsc, prettier, then vitest) is read from its printed output, and vitest there prints a
// summary per file: counts, no test names. The build then discards every candidate; the reason must say that the
// output had counts only and what to configure, not only "listed no tests (exit code 0)". Real vitest (yolo's own).

let root: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "yolo-counts-only-")));
  symlinkSync(resolve("node_modules"), join(root, "node_modules"));
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "demo", type: "module" }));
  writeFileSync(
    join(root, "a.spec.js"),
    'import { test, expect } from "vitest";\ntest("one", () => expect(1).toBe(1));\ntest("two", () => expect(2).toBe(2));\n',
  );
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("a suite whose gate prints counts only", { timeout: 120_000 }, () => {
  it("says the output counted tests without naming them, and which gate names them", async () => {
    const gate = { name: "test", command: "true && node_modules/.bin/vitest run", required: true, timeoutS: 120 };
    const run = await runSuite(root, [gate], join(root, ".logs"), { ...HOST_SUITE, env: { ...HOST_SUITE.env, CI: "true" } });
    expect(run).toEqual({
      ok: false,
      reason: expect.stringMatching(
        /listed no tests \(exit code 0\): its output counts 2 passed, 0 failed but names no test; configure a gate that runs the test runner alone/,
      ),
    });
  });
});

import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { runCommandTool } from "../../../src/tools/run-command.js";
import type { ToolContext } from "../../../src/tools/types.js";
import { parseTestOutput } from "../../../src/gates/parse.js";
import { tempDir } from "../../helpers/per-test.js";

let root: string;
let ctx: ToolContext;

beforeEach(({ onTestFinished }) => {
  root = tempDir(onTestFinished, "yolo-cmd-counts-");
  ctx = {
    root,
    commandTimeoutS: 30,
    outputCapBytes: 16_384,
    readCapBytes: 4096,
    env: { PATH: process.env.PATH },
    secretEnvNames: [],
    readTestCounts: parseTestOutput,
  };
  fs.writeFileSync(
    path.join(root, "add.test.mjs"),
    `import { test } from "node:test";
import assert from "node:assert/strict";
test("adds", () => assert.equal(1 + 1, 2));
test("subtracts", () => assert.equal(1 - 1, 0));
test("fails on purpose", () => assert.equal(1, 2));
`,
  );
});

const run = (command: string) => runCommandTool.run(runCommandTool.schema.parse({ command }), ctx);

describe("run_command's one-line summary", () => {
  it("adds the failed count when the output is a test run's", async () => {
    const out = await run(`"${process.execPath}" --test add.test.mjs`);
    expect(out.ok).toBe(false);
    expect(out.summary).toMatch(/ → exit 1 \(1 failed\)$/);
  });

  it("adds the passed count when every test passes, and nothing for other output", async () => {
    fs.writeFileSync(path.join(root, "add.test.mjs"), `import { test } from "node:test";\ntest("adds", () => {});\ntest("more", () => {});\n`);
    expect((await run(`"${process.execPath}" --test add.test.mjs`)).summary).toMatch(/ → exit 0 \(2 passed\)$/);
    expect((await run("echo hello")).summary).toBe("echo hello → exit 0");
  });
});

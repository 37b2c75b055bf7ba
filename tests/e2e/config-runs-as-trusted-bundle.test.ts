import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it, type TestContext } from "vitest";
import { describeResult, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, director, pmDone } from "../helpers/director.js";
import { mockWith, project, tempDir } from "../helpers/per-test.js";

// The host runs the project's config only as the bundle the user trusted: a file the config reaches that a model
// writes afterwards — through package.json `imports`, a package shadowing one from a parent folder, a computed
// import, the target of a linked config — is never loaded by the next `threads`, `run` or `resume` (they refuse the
// changed config and say so), and a rejecting resume does not trust it again. Each route has its control: the benign
// config, as trusted, loads (its marker file appears).

type Finally = TestContext["onTestFinished"];

/** A module body that writes `name` into the working directory when it is loaded, then exports `value`. */
const writes = (name: string, value: string) => `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(name)}, "ran");\n${value}\n`;

function put(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

function setUp(onTestFinished: Finally, files: Record<string, string>) {
  const root = project(onTestFinished, files);
  const env = { XDG_STATE_HOME: tempDir(onTestFinished, "yolo-state-") };
  return { root, env, ran: (name: string) => existsSync(join(root, name)) };
}

/** The user trusts the config, and a listing then loads it: the control that the benign route works. */
async function trustAndLoad(expect: TestContext["expect"], root: string, env: Record<string, string>, marker: string) {
  const trust = await runYolo(["config", "trust"], { cwd: root, env });
  expect(trust.exitCode, describeResult(trust)).toBe(0);
  const threads = await runYolo(["threads"], { cwd: root, env });
  expect(threads.exitCode, describeResult(threads)).toBe(0);
  expect(existsSync(join(root, marker)), "the trusted config loaded").toBe(true);
}

/** `threads` and a new `run` both refuse the changed config, and the model's module never runs. */
async function refusedEverywhere(expect: TestContext["expect"], root: string, env: Record<string, string>, marker: string) {
  for (const args of [["run", "--ci", "--json", "anything"], ["threads"]]) {
    const r = await runYolo(args, { cwd: root, env: { ...env, OPENAI_API_KEY: "sk-unused", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" } });
    expect(existsSync(join(root, marker)), `${args[0]} loaded the model's module`).toBe(false);
    expect(r.exitCode, `${args[0]}: ${describeResult(r)}`).toBe(2);
    expect(r.stderr).toContain("changed since you trusted it");
    expect(r.stderr).toContain("yolo config trust");
  }
}

describe("the config runs as the bundle the user trusted", { timeout: 240_000 }, () => {
  it("package.json `imports` (#gates): the model's rewrite of the target is refused, not loaded", async ({ expect, onTestFinished }) => {
    const { root, env } = setUp(onTestFinished, {
      "package.json": JSON.stringify({ name: "demo", type: "module", scripts: { test: "node --test test/" }, imports: { "#gates": "./config/gates.ts" } }),
      "config/gates.ts": writes("benign-ran", "export const gates = [];"),
      "yolo.config.ts": 'import { defineConfig } from "yolo";\nimport { gates } from "#gates";\nexport default defineConfig({ gates });\n',
    });
    await trustAndLoad(expect, root, env, "benign-ran");
    writeFileSync(join(root, "config/gates.ts"), writes("model-ran", "export const gates = [];"));
    await refusedEverywhere(expect, root, env, "model-ran");
  });

  it("a package found in a parent folder's node_modules: a copy the model puts in the project is refused, not loaded", async ({ expect, onTestFinished }) => {
    const parent = tempDir(onTestFinished, "yolo-parent-");
    const root = join(parent, "project");
    put(parent, {
      "node_modules/team-gates/package.json": '{ "name": "team-gates", "main": "index.js" }',
      "node_modules/team-gates/index.js": "module.exports = { gates: [] };\n",
    });
    put(root, {
      "package.json": JSON.stringify({ name: "demo", type: "module" }),
      "yolo.config.ts": `${writes("benign-ran", "")}import preset from "team-gates";\nexport default preset;\n`,
    });
    execFileSync("git", ["init", "-q"], { cwd: root });
    const env = { XDG_STATE_HOME: tempDir(onTestFinished, "yolo-state-") };
    await trustAndLoad(expect, root, env, "benign-ran");
    put(root, {
      "node_modules/team-gates/package.json": '{ "name": "team-gates", "main": "index.js" }',
      "node_modules/team-gates/index.js": `require("node:fs").writeFileSync("model-ran", "ran");\nmodule.exports = { gates: [] };\n`,
    });
    await refusedEverywhere(expect, root, env, "model-ran");
  });

  it("a computed import (createRequire, import(new URL(…))) is refused at trust with its file and line; a fixed import loads", async ({
    expect,
    onTestFinished,
  }) => {
    const { root, env, ran } = setUp(onTestFinished, {
      "gates.cjs": `require("node:fs").writeFileSync("model-ran", "ran");\nmodule.exports = [];\n`,
      "lib/url.mjs": 'const gates = await import(new URL("../gates.cjs", import.meta.url));\nexport default gates;\n',
      "yolo.config.ts":
        'import { createRequire } from "node:module";\nconst gates = createRequire(import.meta.url)("./gates.cjs");\nexport default { gates };\n',
    });
    for (const args of [["config", "trust"], ["threads"]]) {
      const r = await runYolo(args, { cwd: root, env });
      expect(r.exitCode, describeResult(r)).toBe(2);
      expect(r.stderr).toContain("yolo.config.ts:2: createRequire() loads a module yolo cannot resolve before running it");
      expect(ran("model-ran")).toBe(false);
    }
    writeFileSync(join(root, "yolo.config.ts"), 'import gates from "./lib/url.mjs";\nexport default { gates };\n');
    const url = await runYolo(["config", "trust"], { cwd: root, env });
    expect(url.exitCode, describeResult(url)).toBe(2);
    expect(url.stderr).toContain("lib/url.mjs:1: import() of a computed specifier");
    // The control: the same module imported by a fixed name is bundled, trusted and loaded.
    writeFileSync(join(root, "gates.ts"), writes("benign-ran", "export default [];"));
    writeFileSync(join(root, "yolo.config.ts"), 'import gates from "./gates.ts";\nexport default { gates };\n');
    await trustAndLoad(expect, root, env, "benign-ran");
  });

  it("a yolo.config.ts that links to config/yolo.ts: the model's rewrite of the target is refused by run, threads and a rejecting resume, which does not trust it again", async ({
    expect,
    onTestFinished,
  }) => {
    const { root, env, ran } = setUp(onTestFinished, { "config/yolo.ts": writes("benign-ran", 'export default { approve: ["pm"] };') });
    symlinkSync("config/yolo.ts", join(root, "yolo.config.ts"));
    await trustAndLoad(expect, root, env, "benign-ran");
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false), pmDone(false)] }));
    const first = await runYolo(["run", "--json", "Add add()"], { cwd: root, baseURL: mock.url, env });
    expect(first.exitCode, describeResult(first)).toBe(3);
    const thread = threadIdFrom(first.stdout);
    writeFileSync(join(root, "config/yolo.ts"), writes("model-ran", "export default { approve: [] };"));
    const store = readTrustRecords(env.XDG_STATE_HOME);
    const rejected = await runYolo(["resume", thread, "--json", "--reject", "smaller stories"], { cwd: root, baseURL: mock.url, env });
    expect(ran("model-ran"), "the rejecting resume loaded the model's config").toBe(false);
    expect(rejected.exitCode, describeResult(rejected)).toBe(2);
    expect(rejected.stderr).toContain("changed since you trusted it");
    expect(readTrustRecords(env.XDG_STATE_HOME), "the resume trusted the change").toBe(store);
    await refusedEverywhere(expect, root, env, "model-ran");
  });
});

// Every project's trust record in the state folder, as one text (a change to any shows).
function readTrustRecords(state: string): string {
  const dir = join(state, "yolo", "trusted-config");
  return readdirSync(dir)
    .sort()
    .map((name) => readFileSync(join(dir, name), "utf8"))
    .join("\n");
}

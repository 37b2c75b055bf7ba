import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runGatesWithTests } from "../../../src/gates/run-gates.js";
import { gateSchema } from "../../../src/gates/schema.js";
import { reportingCommand } from "../../../src/gates/test-cases.js";
import { repoModules } from "../../helpers/repo-modules.js";

// The gate runs the suite in the environment the user's own shell gives it: yolo adds no colour, CI or terminal
// variables, and a per-gate `env` is the user's way to add some (a colour-detection suite that expects FORCE_COLOR).
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function projectWith(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "yolo-gate-env-")));
  dirs.push(root);
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
  return root;
}

const base = { PATH: process.env.PATH, HOME: process.env.HOME };
const opts = (root: string, env: NodeJS.ProcessEnv = base) => ({ root, env, capBytes: 100_000, attempt: 1, logDir: join(root, ".yolo", "gates") });
const logOf = (root: string, file: string | null) => readFileSync(join(root, file ?? ""), "utf8");

describe("a gate command's environment", { timeout: 240_000 }, () => {
  it("has no colour, CI or terminal variable the user did not set", async () => {
    const root = projectWith({});
    const [run] = await runGatesWithTests([{ name: "env", command: "env", required: true, timeoutS: 10 }], opts(root));
    const log = logOf(root, run.result.logFile);
    for (const name of ["CI", "NO_COLOR", "FORCE_COLOR", "TERM", "CLICOLOR_FORCE"]) expect(log).not.toMatch(new RegExp(`^${name}=`, "m"));
  });

  it("keeps the colour variables the user's own shell has", async () => {
    const root = projectWith({});
    const [run] = await runGatesWithTests(
      [{ name: "env", command: "env", required: true, timeoutS: 10 }],
      opts(root, { ...base, FORCE_COLOR: "3", TERM: "xterm-256color" }),
    );
    const log = logOf(root, run.result.logFile);
    expect(log).toMatch(/^FORCE_COLOR=3$/m);
    expect(log).toMatch(/^TERM=xterm-256color$/m);
    expect(log).not.toMatch(/^NO_COLOR=/m);
  });

  it("takes the gate's own `env` from the config, past a strict allow-list", async () => {
    const root = projectWith({});
    const gate = gateSchema.parse({ name: "env", command: "env", env: { CLICOLOR_FORCE: "1", MY_FLAG: "on" } });
    const [run] = await runGatesWithTests([gate], { ...opts(root), commands: { envAllow: ["PATH", "HOME"], sandbox: { kind: "none" } } });
    const log = logOf(root, run.result.logFile);
    expect(log).toMatch(/^CLICOLOR_FORCE=1$/m);
    expect(log).toMatch(/^MY_FLAG=on$/m);
  });

  it("reads every test of a jest suite that forces colours", async () => {
    const root = projectWith({
      // A chained script: yolo asks for no report, so the printed output, colours and all, is what is read.
      "package.json": JSON.stringify({ name: "j", scripts: { test: "jest --verbose && echo done" } }),
      "test/math.test.js": 'describe("math", () => {\n  it("adds", () => expect(1 + 1).toBe(2));\n  it("subtracts", () => expect(2 - 1).toBe(0));\n});\n',
    });
    symlinkSync(repoModules(), join(root, "node_modules"));
    const gate = gateSchema.parse({ name: "test", command: "npm test", env: { FORCE_COLOR: "1" } });
    const [run] = await runGatesWithTests([gate], opts(root));
    // The colours really are there: the reader has to see through them.
    expect(run.outputs?.[0]).toContain("\u001b[");
    expect(run.result).toMatchObject({ passed: false, reading: "parsed", passedCount: 1, failedCount: 1 });
    expect(run.tests).toEqual([
      { id: "test/math.test.js > math > adds", status: "passed" },
      { id: "test/math.test.js > math > subtracts", status: "failed" },
    ]);
  });

  it("reads every test of a vitest suite that forces colours", async () => {
    const root = projectWith({
      "package.json": JSON.stringify({ name: "v", type: "module", scripts: { test: "vitest run" } }),
      "test/math.test.js": 'import { it, expect } from "vitest";\nit("adds", () => expect(1 + 1).toBe(2));\nit("subtracts", () => expect(2 - 1).toBe(0));\n',
    });
    symlinkSync(repoModules(), join(root, "node_modules"));
    const [run] = await runGatesWithTests([{ name: "test", command: "npm test", required: true, timeoutS: 120 }], opts(root, { ...base, FORCE_COLOR: "1" }));
    expect(run.outputs?.[0]).toContain("\u001b[");
    expect(run.tests).toEqual([
      { id: "test/math.test.js > adds", status: "passed" },
      { id: "test/math.test.js > subtracts", status: "failed" },
    ]);
  });
});

describe("a runner that would watch without CI", () => {
  it("is told not to in its own words", () => {
    expect(reportingCommand("npm test", { test: "react-scripts test" })).toBe("npm test -- --watchAll=false");
    expect(reportingCommand("npm test", { test: "craco test --coverage" })).toBe("npm test -- --watchAll=false");
    expect(reportingCommand("npm test", { test: "react-scripts test --watchAll=false" })).toBe("npm test");
  });
});

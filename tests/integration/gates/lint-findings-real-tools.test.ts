import { afterAll, beforeAll, describe, expect, it } from "vitest";
import os from "node:os";
import path from "node:path";
import { defaultGates } from "../../../src/gates/detect.js";
import { judgeGate } from "../../../src/gates/judge.js";
import { lintFindings } from "../../../src/gates/lint-findings.js";
import { type GateRun, runGatesWithTests } from "../../../src/gates/run-gates.js";
import { asBaseline, gateSandbox, type JsProject, jsProject } from "../../helpers/js-runner-project.js";

// One generated project per tool, its scripts the ones yolo detects as lint / type-check gates; the real eslint,
// prettier and tsc through the real gate code in the sandbox. Each case is a state of the project judged against
// the red baseline the way gate-check.ts judges it.
const PKG = (scripts: Record<string, string>) => JSON.stringify({ name: "m", version: "1.0.0", type: "module", scripts });
const ESLINT_CONFIG = `export default [{ files: ["**/*.js"], rules: { "no-unused-vars": "error" }, languageOptions: { globals: { console: "readonly" } } }];\n`;
// The project's node_modules is the repository's: without `types: []` tsc loads every @types package in it, and
// checks them without skipLibCheck, about 13 s of CPU a run (the finding compared is in src/t.ts either way). lib
// leaves out the DOM's declarations, which the default lib adds.
const TSCONFIG = JSON.stringify({
  compilerOptions: { strict: true, noEmit: true, target: "es2022", lib: ["es2022"], module: "nodenext", types: [], skipLibCheck: true },
  include: ["src"],
});

const GO = (funcs: string[]) => `package m\n\nimport "fmt"\n\n${funcs.join("\n")}\n`;

const RS = (body: string[]) => `pub fn f() -> i32 {\n${body.map((l) => `    ${l}\n`).join("")}}\n`;

interface Checked {
  run: GateRun;
  findings: string[] | null;
}

// The detected gate `name` run once, with its findings as the baseline record and gate-check read them.
async function runDetected(p: JsProject, name: string, attempt: number): Promise<Checked> {
  const gate = defaultGates(p.root).find((g) => g.name === name);
  expect(gate, `${name} detected`).toMatchObject({ required: false, baseline: "findings" });
  const stateDir = path.join(p.root, ".yolo");
  const [run] = await runGatesWithTests([gate!], {
    root: p.root,
    env: { PATH: process.env.PATH, HOME: os.homedir() },
    capBytes: 512 * 1024,
    attempt,
    logDir: path.join(stateDir, "gates"),
    stateDir,
    commands: { envAllow: null, sandbox: gateSandbox },
  });
  return { run, findings: lintFindings(run.outputs?.[0] ?? "", p.root) };
}

function judged(base: Checked, now: Checked) {
  return judgeGate(
    now.run.result,
    now.run.tests,
    { ...asBaseline(base.run), findings: base.findings },
    {
      preExistingAllowed: false,
      changes: [],
      approved: false,
      findings: now.findings,
    },
  );
}

interface Case {
  tool: string;
  gate: string;
  files: Record<string, string>;
  /** Red at the baseline. */
  red: Record<string, string | null>;
  /** The same findings, moved (lines added above them) or in changed code. */
  same: Record<string, string | null>;
  /** One finding more. */
  more: Record<string, string | null>;
  /** The normalized line the new finding reads as. */
  added: RegExp;
  multiLine?: boolean;
  fixed: Record<string, string | null>;
}

const CASES: Case[] = [
  {
    tool: "eslint (flat config)",
    gate: "lint",
    files: { "package.json": PKG({ lint: "eslint src" }), "eslint.config.js": ESLINT_CONFIG },
    red: { "src/a.js": "const a = 1;\nconsole.log('a');\n", "src/b.js": "const b = 2;\n" },
    same: { "src/a.js": "console.log('moved');\n\n\nconst a = 10;\nconsole.log('a');\n" },
    more: { "src/a.js": "const a = 1;\nconst c = 3;\nconsole.log('a');\n" },
    added: /^#:# error 'c' is assigned a value but never used/,
    fixed: { "src/a.js": "console.log('a');\n", "src/b.js": "export const b = 2;\n" },
  },
  {
    tool: "prettier --check",
    gate: "lint",
    files: { "package.json": PKG({ lint: "prettier --check src" }) },
    red: { "src/a.js": "const  a=1\n", "src/b.js": "const  b=2\n", "src/ok.js": "export const ok = 1;\n" },
    same: { "src/a.js": "const  a=100\n", "src/b.js": null },
    more: { "src/ok.js": "export const  ok=1\n" },
    added: /^\[warn\] src\/ok\.js$/,
    fixed: { "src/a.js": "export const a = 1;\n", "src/b.js": null, "src/ok.js": "export const ok = 1;\n" },
  },
  {
    tool: "tsc --noEmit",
    gate: "typecheck",
    files: { "package.json": PKG({ typecheck: "tsc --noEmit -p ." }), "tsconfig.json": TSCONFIG },
    red: { "src/t.ts": `export const n: number = "s";\n` },
    same: { "src/t.ts": `export const before = 1;\n\n\nexport const n: number = "s";\n` },
    more: { "src/t.ts": `export const n: number = "s";\nexport const m: string = 1;\n` },
    added: /^src\/t\.ts\(#,#\): error TS#: Type 'number' is not assignable to type 'string'\.$/,
    fixed: { "src/t.ts": "export const n: number = 1;\n" },
  },
  {
    tool: "go vet",
    gate: "vet",
    files: { "go.mod": "module example.com/m\n\ngo 1.19\n" },
    red: { "a.go": GO(['func F(s string) { fmt.Printf("%d\\n", s) }']) },
    same: { "a.go": GO(["func G() {}", "", 'func F(s string) { fmt.Printf("%d\\n", s) }']) },
    more: { "a.go": GO(['func F(s string) { fmt.Printf("%d\\n", s) }', 'func H(t string) { fmt.Printf("%d\\n", t) }']) },
    added: /^\.\/a\.go:#:#: fmt\.Printf format %d has arg t of wrong type string$/,
    fixed: { "a.go": GO(['func F(s string) { fmt.Printf("%s\\n", s) }']) },
  },
  {
    tool: "cargo clippy",
    gate: "clippy",
    files: { "Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n\n[lints.clippy]\n' },
    red: { "src/lib.rs": RS(["let x = 1;", "return 3;"]) },
    same: { "src/lib.rs": `pub fn g() {}\n\n${RS(["let x = 10;", "return 3;"])}` },
    more: { "src/lib.rs": RS(["let x = 1;", "let z = 2;", "return 3;"]) },
    added: /^error: unused variable: `z`$/,
    // rustc prints a finding on several lines: its message, where, and the code under it.
    multiLine: true,
    fixed: { "src/lib.rs": RS(["3"]) },
  },
];

describe.each(CASES)("a detected $tool gate red at the baseline", { timeout: 240_000 }, (c) => {
  let p: JsProject;
  let base: Checked;
  let attempt = 0;
  const at = async (files: Record<string, string | null>) => {
    p.write({ ...c.red, ...files });
    return runDetected(p, c.gate, ++attempt);
  };
  beforeAll(async () => {
    p = jsProject("lint-findings", { ...c.files, ...c.red });
    base = await runDetected(p, c.gate, 0);
  });
  afterAll(() => p.remove());

  it("is red at the baseline with findings yolo can compare", () => {
    expect(base.run.result.passed, base.run.outputs?.[0]).toBe(false);
    expect(base.run.result.environment).toBeUndefined();
    expect(base.findings?.length).toBeGreaterThan(0);
  });

  it("does not block a change that leaves the same findings (moved, or fewer)", async () => {
    const now = await at(c.same);
    expect(now.run.result.passed).toBe(false);
    expect(judged(base, now), now.run.outputs?.[0]).toMatchObject({ blocking: false, findings: ["red at the baseline, no new findings"] });
  });

  it("blocks a change that adds one finding, and lists it", async () => {
    const now = await at(c.more);
    const j = judged(base, now);
    expect(j.blocking, now.run.outputs?.[0]).toBe(true);
    const listed = j.findings.filter((f) => f.startsWith("new finding: ")).map((f) => f.slice("new finding: ".length));
    if (!c.multiLine) expect(listed).toHaveLength(1);
    expect(
      listed.filter((l) => c.added.test(l)),
      listed.join("\n"),
    ).toHaveLength(1);
  });

  it("passes once the change fixed it", async () => {
    const now = await at(c.fixed);
    expect(now.run.result.passed, now.run.outputs?.[0]).toBe(true);
    expect(judged(base, now).blocking).toBe(false);
  });
});

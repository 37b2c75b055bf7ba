import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, it, type TestContext } from "vitest";
import { defaultGates } from "../../../src/gates/detect.js";
import { judgeGate } from "../../../src/gates/judge.js";
import { runGatesWithTests, type GateRun } from "../../../src/gates/run-gates.js";
import { inScopeOf, planGateScope } from "../../../src/gates/scope-plan.js";
import { changeReader } from "../../../src/git/changed-files.js";
import { tempDir } from "../../helpers/per-test.js";
import { requireTool } from "../../helpers/requires.js";

// A real multi-module repository: the baseline runs the detected (whole-suite) gate, a change to the shared library
// is read from git, the narrowed command runs with the real toolchain, and the run is judged against the baseline.

function repo(ctx: TestContext, files: Record<string, string>, prepare?: (root: string) => void): string {
  const root = tempDir(ctx.onTestFinished, "yolo-mono-");
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, stdio: "ignore" });
  prepare?.(root);
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "init");
  return root;
}

const env = { PATH: process.env.PATH, HOME: process.env.HOME, GOPROXY: "off", GOFLAGS: "-mod=mod", CARGO_NET_OFFLINE: "true" };
const run = async (root: string, gate: Parameters<typeof runGatesWithTests>[0][number], attempt: number): Promise<GateRun> =>
  (await runGatesWithTests([gate], { root, env, capBytes: 1 << 20, attempt, logDir: path.join(root, ".yolo/gates") }))[0];
const ids = (r: GateRun) =>
  (r.tests ?? [])
    .filter((t) => t.status === "passed")
    .map((t) => t.id)
    .sort();

// Baseline, then a change to the library read from git, then the narrowed run judged against the baseline.
async function narrowedAfter(root: string, change: () => void) {
  const start = execFileSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
  const [gate] = defaultGates(root);
  const baseline = await run(root, gate, 0);
  change();
  const plan = planGateScope(gate, { root, mode: "changed", configured: false, change: await changeReader(root, start).changedFiles() });
  const narrowed = await run(root, plan.gate, 1);
  const judged = judgeGate(
    narrowed.result,
    narrowed.tests,
    { ...baseline.result, tests: baseline.tests },
    { preExistingAllowed: false, changes: [], approved: false, inScope: inScopeOf(plan) },
  );
  return { gate, baseline, plan, narrowed, judged };
}

describe("monorepo gates narrowed with the real toolchain", () => {
  it("Go modules: a change to lib runs lib and svc (which requires it), not tool; a deleted lib test is missing", async (ctx) => {
    requireTool(ctx, "go", "running go test in a multi-module repository");
    const { expect } = ctx;
    const root = repo(ctx, {
      "lib/go.mod": "module example.com/lib\n\ngo 1.19\n",
      "lib/lib.go": "package lib\n\nfunc Add(a, b int) int { return a + b }\n",
      "lib/lib_test.go":
        'package lib\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("bad")\n\t}\n}\n\nfunc TestAddZero(t *testing.T) {\n\tif Add(0, 0) != 0 {\n\t\tt.Fatal("bad")\n\t}\n}\n',
      "svc/go.mod": "module example.com/svc\n\ngo 1.19\n\nrequire example.com/lib v0.0.0\n\nreplace example.com/lib => ../lib\n",
      "svc/svc.go": 'package svc\n\nimport "example.com/lib"\n\nfunc Twice(a int) int { return lib.Add(a, a) }\n',
      "svc/svc_test.go": 'package svc\n\nimport "testing"\n\nfunc TestTwice(t *testing.T) {\n\tif Twice(2) != 4 {\n\t\tt.Fatal("bad")\n\t}\n}\n',
      "tool/go.mod": "module example.com/tool\n\ngo 1.19\n",
      "tool/tool_test.go": 'package tool\n\nimport "testing"\n\nfunc TestTool(t *testing.T) {}\n',
    });
    const { gate, baseline, plan, narrowed, judged } = await narrowedAfter(root, () => {
      fs.writeFileSync(path.join(root, "lib/lib.go"), "package lib\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n");
      fs.writeFileSync(path.join(root, "lib/lib_test.go"), fs.readFileSync(path.join(root, "lib/lib_test.go"), "utf8").replace(/func TestAddZero[\s\S]*$/, ""));
    });
    expect(gate.command).toBe('status=0; for m in lib svc tool; do (cd "$m" && go test -v ./...) || status=1; done; exit $status');
    expect(ids(baseline)).toEqual(["example.com/lib TestAdd", "example.com/lib TestAddZero", "example.com/svc TestTwice", "example.com/tool TestTool"]);
    expect(plan.scope).toEqual({ kind: "changed", units: ["example.com/lib", "example.com/svc"] });
    expect(narrowed.result.exitCode, narrowed.result.tail).toBe(0);
    expect(ids(narrowed)).toEqual(["example.com/lib TestAdd", "example.com/svc TestTwice"]);
    // tool's test did not run and is not missing; lib's deleted test is.
    expect(judged).toMatchObject({ missing: ["example.com/lib TestAddZero"], blocking: true });
  }, 300_000);

  it("Cargo workspace: a change to core runs -p core -p cli (its dependent), not other; tests are named by crate", async (ctx) => {
    requireTool(ctx, "cargo", "running cargo test in a workspace");
    const { expect } = ctx;
    const lib = (body: string, test: string) =>
      `${body}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn works() {\n        ${test}\n    }\n}\n`;
    const root = repo(
      ctx,
      {
        ".gitignore": "target/\n",
        "Cargo.toml": '[workspace]\nmembers = ["crates/*"]\nresolver = "2"\n',
        "crates/core/Cargo.toml": '[package]\nname = "core-lib"\nversion = "0.1.0"\nedition = "2021"\n\n[lib]\ndoctest = false\n',
        "crates/core/src/lib.rs": lib("pub fn add(a: i32, b: i32) -> i32 { a + b }", "assert_eq!(add(1, 2), 3);"),
        "crates/cli/Cargo.toml":
          '[package]\nname = "cli"\nversion = "0.1.0"\nedition = "2021"\n\n[lib]\ndoctest = false\n\n[dependencies]\ncore-lib = { path = "../core" }\n',
        "crates/cli/src/lib.rs": lib("pub fn twice(a: i32) -> i32 { core_lib::add(a, a) }", "assert_eq!(twice(2), 4);"),
        "crates/other/Cargo.toml": '[package]\nname = "other"\nversion = "0.1.0"\nedition = "2021"\n\n[lib]\ndoctest = false\n',
        "crates/other/src/lib.rs": lib("pub fn id(a: i32) -> i32 { a }", "assert_eq!(id(7), 7);"),
        // Committed, as a workspace's lockfile is: one the baseline created would be a changed root file (whole suite).
      },
      (root) => execFileSync("cargo", ["generate-lockfile", "--offline"], { cwd: root, stdio: "ignore", env: { ...process.env, ...env } }),
    );
    const { gate, baseline, plan, narrowed, judged } = await narrowedAfter(root, () => {
      fs.writeFileSync(path.join(root, "crates/core/src/lib.rs"), lib("pub fn add(a: i32, b: i32) -> i32 { a - b }", "assert_eq!(add(1, 2), 3);"));
    });
    expect(gate.command).toBe("cargo test --workspace");
    // Every crate's unit tests are `src/lib.rs tests::works`: the crate's name keeps them apart.
    expect(ids(baseline)).toEqual(["cli › src/lib.rs tests::works", "core-lib › src/lib.rs tests::works", "other › src/lib.rs tests::works"]);
    expect(plan.scope).toEqual({ kind: "changed", units: ["cli", "core-lib"] });
    expect(plan.gate.command).toBe("cargo test --no-fail-fast -p 'cli' -p 'core-lib'");
    expect((narrowed.tests ?? []).map((t) => `${t.id}: ${t.status}`).sort()).toEqual([
      "cli › src/lib.rs tests::works: failed",
      "core-lib › src/lib.rs tests::works: failed",
    ]);
    // Both regress; other's test did not run and is not missing.
    expect(judged).toMatchObject({ missing: [], blocking: true });
    expect([...judged.regressions].sort()).toEqual(["cli › src/lib.rs tests::works", "core-lib › src/lib.rs tests::works"]);
  }, 300_000);
});

import fs from "node:fs";
import path from "node:path";
import { describe, it } from "vitest";
import type { GateConfig } from "../../../src/config/schema.js";
import type { GateResult } from "../../../src/events/schema.js";
import { judgeGate } from "../../../src/gates/judge.js";
import { inScopeOf, planGateScope, unitOfTest, type ScopeInput } from "../../../src/gates/scope-plan.js";
import { reportingCommand } from "../../../src/gates/test-cases.js";
import { workspaceTestCases } from "../../../src/gates/workspace-cases.js";
import { tempDir } from "../../helpers/per-test.js";

const npmTest: GateConfig = { name: "test", command: "npm test", required: true, timeoutS: 60 };
const pkg = (name: string, deps: Record<string, string> = {}) =>
  JSON.stringify({ name, version: "1.0.0", scripts: { test: "node --test" }, dependencies: deps });

function monorepo(root: string): string {
  const files: Record<string, string> = {
    "package.json": JSON.stringify({ workspaces: ["packages/*"], scripts: { test: "npm test --workspaces" } }),
    "packages/core/package.json": pkg("@m/core"),
    "packages/app/package.json": pkg("@m/app", { "@m/core": "*" }),
    "packages/util/package.json": pkg("@m/util"),
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

const input = (root: string, over: Partial<ScopeInput> = {}): ScopeInput => ({
  root,
  mode: "changed",
  configured: false,
  change: { ok: true, files: ["packages/core/index.js"] },
  ...over,
});

describe("deciding what a gate run covers", () => {
  it("a detected gate narrows to the changed workspace and its dependents; every fallback says why", ({ expect, onTestFinished }) => {
    const root = monorepo(tempDir(onTestFinished));
    expect(planGateScope(npmTest, input(root)).scope).toEqual({ kind: "changed", units: ["@m/app", "@m/core"] });
    const why = (over: Partial<ScopeInput>, gate = npmTest) => planGateScope(gate, input(root, over));
    expect(why({ mode: "all" }).scope).toEqual({ kind: "all", units: [], reason: 'gateScope is "all"' });
    expect(why({ change: { ok: false, note: "the project is not in a git repository" } }).scope?.reason).toBe(
      "the change is not known: the project is not in a git repository",
    );
    expect(why({ change: { ok: true, files: ["package-lock.json", "packages/core/a.js"] } }).scope?.reason).toBe(
      "package-lock.json is outside every workspace",
    );
    expect(why({ change: { ok: true, files: [".github/workflows/ci.yml"] } }).scope?.reason).toBe(".github/workflows/ci.yml is outside every workspace");
    expect(why({}, { ...npmTest, command: "yarn test" }).scope?.reason).toMatch(/narrows only the test commands it detects/);
    expect(why({}, { ...npmTest, scope: "all" }).scope?.kind).toBe("all");
  });

  it('a configured gate (yolo.config.ts or --test-cmd) runs as written unless it says scope: "changed"', ({ expect, onTestFinished }) => {
    const root = monorepo(tempDir(onTestFinished));
    const asWritten = planGateScope(npmTest, input(root, { configured: true }));
    expect(asWritten.gate.command).toBe("npm test");
    expect(asWritten.scope?.reason).toMatch(/configured gate \(in yolo.config.ts or given as the test command\) runs as written/);
    const optedIn = planGateScope({ ...npmTest, scope: "changed" }, input(root, { configured: true }));
    expect(optedIn.gate.command).toBe("npm run test --if-present --workspace='@m/app' --workspace='@m/core'");
    // gateScope "all" switches narrowing off even for a gate that opted in.
    expect(planGateScope({ ...npmTest, scope: "changed" }, input(root, { configured: true, mode: "all" })).gate.command).toBe("npm test");
  });

  it("outside a monorepo nothing is said and nothing changes", ({ expect, onTestFinished }) => {
    const root = tempDir(onTestFinished);
    fs.writeFileSync(path.join(root, "package.json"), JSON.stringify({ scripts: { test: "node --test" } }));
    expect(planGateScope(npmTest, input(root, { change: { ok: true, files: ["src/a.js"] } }))).toEqual({ gate: npmTest, scope: null, packages: null });
  });
});

describe("judging a narrowed run against a whole-suite baseline", () => {
  const packages = [
    { name: "@m/core", dir: "packages/core", uses: [] },
    { name: "@m/app", dir: "packages/app", uses: ["@m/core"] },
    { name: "@m/util", dir: "packages/util", uses: [] },
    { name: "example.com/lib", dir: "lib", uses: [] },
  ];

  it("ties a test to its unit by the workspace npm named, a Go import path, or a path in the unit's folder", ({ expect }) => {
    expect(unitOfTest("@m/app › app twice", packages)).toBe("@m/app");
    expect(unitOfTest("example.com/lib/sub TestAdd", packages)).toBe("example.com/lib");
    expect(unitOfTest("packages/util/test/a.test.ts > adds", packages)).toBe("@m/util");
    expect(unitOfTest("adds two numbers", packages)).toBeNull();
    expect(unitOfTest("@m/other › x", packages)).toBeNull();
  });

  it("tests outside the scope are not missing; tests inside it that vanished are, and block", ({ expect }) => {
    const scoped = { gate: npmTest, scope: { kind: "changed" as const, units: ["@m/app", "@m/core"] }, packages };
    const inScope = inScopeOf(scoped);
    const passed = (id: string) => ({ id, status: "passed" as const });
    const base = {
      name: "test",
      passed: true,
      passedCount: 4,
      failedCount: 0,
      tests: ["@m/core › adds", "@m/core › subs", "@m/app › twice", "@m/util › id"].map(passed),
    };
    const result: GateResult = {
      name: "test",
      command: "npm run test …",
      required: true,
      passed: true,
      exitCode: 0,
      timedOut: false,
      durationMs: 1,
      attempt: 1,
      passedCount: 2,
      failedCount: 0,
      failures: [],
      tail: "",
      logFile: null,
    };
    const opts = { preExistingAllowed: false, changes: [], approved: false };
    const ok = judgeGate(result, ["@m/core › adds", "@m/core › subs", "@m/app › twice"].map(passed), base, { ...opts, inScope });
    expect(ok).toMatchObject({ missing: [], regressions: [], findings: [], blocking: false });
    // The model deleted a core test: inside the scope, so missing, and a regression.
    const gone = judgeGate(result, ["@m/core › adds", "@m/app › twice"].map(passed), base, { ...opts, inScope });
    expect(gone).toMatchObject({ missing: ["@m/core › subs"], regressions: ["@m/core › subs"], blocking: true });
    expect(gone.findings).toEqual(["fewer tests than the baseline: 2, was 3"]);
    // Without the scope (the whole-suite run), util's absence is missing too.
    expect(judgeGate(result, ["@m/core › adds", "@m/core › subs", "@m/app › twice"].map(passed), base, opts).missing).toEqual(["@m/util › id"]);
  });

  it("npm's per-workspace banners name each test's workspace; same-named tests in two workspaces stay apart", ({ expect, onTestFinished }) => {
    const root = monorepo(tempDir(onTestFinished));
    const tap = (name: string) => `TAP version 13\n# Subtest: ${name}\nok 1 - ${name}\n  ---\n  duration_ms: 1\n  ...\n1..1\n# tests 1\n# pass 1\n# fail 0\n`;
    const out = `\n> mono@1.0.0 test\n> npm test --workspaces\n\n\n> @m/app@1.0.0 test\n> node --test\n\n${tap("works")}\n> @m/core@1.0.0 test\n> node --test\n\n${tap("works")}`;
    expect(workspaceTestCases(out, root)).toEqual([
      { id: "@m/app › works", status: "passed" },
      { id: "@m/core › works", status: "passed" },
    ]);
    expect(workspaceTestCases(tap("works"), root)).toBeNull();
  });

  it("cargo's test binaries name their crate (with _ for -); yolo runs cargo test with stderr in stdout to keep that order", ({ expect, onTestFinished }) => {
    const root = tempDir(onTestFinished);
    fs.mkdirSync(path.join(root, "crates/core-lib"), { recursive: true });
    fs.writeFileSync(path.join(root, "Cargo.toml"), '[workspace]\nmembers = ["crates/*"]\n');
    fs.writeFileSync(path.join(root, "crates/core-lib/Cargo.toml"), '[package]\nname = "core-lib"\n');
    const out =
      "     Running unittests src/lib.rs (target/debug/deps/core_lib-0a1b2c)\n\nrunning 1 test\ntest tests::works ... ok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored\n   Doc-tests core_lib\n\nrunning 1 test\ntest src/lib.rs - add (line 3) ... ok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored\n";
    expect(workspaceTestCases(out, root)).toEqual([
      { id: "core-lib › src/lib.rs tests::works", status: "passed" },
      { id: "core-lib › doc core_lib src/lib.rs - add", status: "passed" },
    ]);
    expect(reportingCommand("cargo test --no-fail-fast -p 'core-lib'", {})).toBe("cargo test --no-fail-fast -p 'core-lib' 2>&1");
    expect(reportingCommand("cargo test | tee out.txt", {})).toBe("cargo test | tee out.txt");
  });
});

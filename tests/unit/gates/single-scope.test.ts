import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { judgeGate } from "../../../src/gates/judge.js";
import { inScopeOf } from "../../../src/gates/scope-plan.js";
import { scopeSingleProject } from "../../../src/gates/single-scope.js";
import { gateResult } from "../../helpers/gate-result.js";

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "yolo-single-scope-"));
  roots.push(root);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}
const gate = (command: string, scope?: "changed" | "all") => ({ name: "test", command, required: true, timeoutS: 600, ...(scope ? { scope } : {}) });
const input = (root: string, files: string[], configured = false) => ({ root, mode: "changed" as const, configured, change: { ok: true as const, files } });

describe("a single project's gate narrowed to what the change touches", () => {
  it("vitest and jest scripts: the runner's related-tests selection of the changed files", () => {
    const vitest = tree({ "package.json": JSON.stringify({ scripts: { test: "vitest run" } }) });
    expect(scopeSingleProject(gate("npm test"), input(vitest, ["src/a.ts"]))).toMatchObject({
      gate: { command: "npx --no-install vitest related --run 'src/a.ts'" },
      scope: { kind: "changed", units: ["src/a.ts"] },
      packages: [],
    });
    const jest = tree({ "package.json": JSON.stringify({ scripts: { test: "jest" } }) });
    expect(scopeSingleProject(gate("npm test"), input(jest, ["lib/b.js"]))?.gate.command).toBe("npx --no-install jest --findRelatedTests 'lib/b.js'");
    const other = tree({ "package.json": JSON.stringify({ scripts: { test: "node --test test/" } }) });
    expect(scopeSingleProject(gate("npm test"), input(other, ["src/a.js"]))).toBeNull();
  });

  it("pytest: the changed test files and the test files that import a changed module, nothing else", () => {
    const root = tree({
      "pricing.py": "def price(): return 1\n",
      "tests/test_pricing.py": "from pricing import price\n",
      "tests/test_other.py": "import other\n",
      "tests/test_new.py": "def test_x(): pass\n",
    });
    expect(scopeSingleProject(gate("pytest -rA"), input(root, ["pricing.py", "tests/test_new.py"]))).toMatchObject({
      gate: { command: "pytest -rA -p no:unraisableexception 'tests/test_new.py' 'tests/test_pricing.py'" },
      scope: { units: ["tests/test_new.py", "tests/test_pricing.py"] },
    });
    // A changed module no test names: no narrowing (it may be used through another module).
    expect(scopeSingleProject(gate("uv run pytest -rA"), input(root, ["helpers.py"]))).toBeNull();
  });

  it("go: the changed packages and every package that depends on them, found by go list in the command", () => {
    const root = tree({ "go.mod": "module example.com/shop\n\ngo 1.19\n" });
    const scoped = scopeSingleProject(gate("go test -v ./..."), input(root, ["price/price.go", "main.go"]));
    expect(scoped?.scope).toEqual({ kind: "changed", units: ["example.com/shop", "example.com/shop/price"] });
    expect(scoped?.gate.command).toContain("go list -f '{{.ImportPath}} {{join .Deps \" \"}}' ./...");
    expect(scoped?.gate.command).toContain("(example\\.com/shop|example\\.com/shop/price)");
  });

  it("cargo, one crate: changed integration test files run as their targets; any other change is the whole crate", () => {
    const crate = '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n';
    const root = tree({ "Cargo.toml": crate, "src/lib.rs": "", "tests/price.rs": "", "tests/cart-flow.rs": "", "tests/common/mod.rs": "" });
    expect(scopeSingleProject(gate("cargo test"), input(root, ["tests/price.rs", "tests/cart-flow.rs"]))).toMatchObject({
      gate: { command: "cargo test --no-fail-fast --test 'cart-flow' --test 'price'" },
      scope: { kind: "changed", units: ["tests/cart-flow.rs", "tests/price.rs"] },
    });
    // The crate's code, a shared test module, the manifest, a deleted test file: the whole suite.
    for (const files of [["src/lib.rs"], ["tests/price.rs", "src/lib.rs"], ["tests/common/mod.rs"], ["Cargo.toml"], ["tests/gone.rs"]])
      expect(scopeSingleProject(gate("cargo test"), input(root, files)), files.join(", ")).toBeNull();
    // Targets the manifest names itself (their names need not be the files'), or discovery turned off: the whole suite.
    const named = tree({ "Cargo.toml": `${crate}\n[[test]]\nname = "integration"\npath = "tests/price.rs"\n`, "tests/price.rs": "" });
    expect(scopeSingleProject(gate("cargo test"), input(named, ["tests/price.rs"]))).toBeNull();
    const off = tree({ "Cargo.toml": crate.replace('edition = "2021"', 'edition = "2021"\nautotests = false'), "tests/price.rs": "" });
    expect(scopeSingleProject(gate("cargo test"), input(off, ["tests/price.rs"]))).toBeNull();
    // A workspace's command is narrowed by crate elsewhere (detect/scope.ts), not here.
    expect(scopeSingleProject(gate("cargo test --workspace"), input(root, ["tests/price.rs"]))).toBeNull();
  });

  it("keeps the whole suite: a config or lock file changed, gateScope all, a configured gate without scope: changed, an unknown change", () => {
    const root = tree({ "package.json": JSON.stringify({ scripts: { test: "vitest" } }) });
    expect(scopeSingleProject(gate("npm test"), input(root, ["src/a.ts", "package.json"]))).toBeNull();
    expect(scopeSingleProject(gate("npm test"), input(root, ["src/a.ts", "vitest.config.ts"]))).toBeNull();
    expect(scopeSingleProject(gate("npm test"), { ...input(root, ["src/a.ts"]), mode: "all" })).toBeNull();
    expect(scopeSingleProject(gate("npm test"), input(root, ["src/a.ts"], true))).toBeNull();
    expect(scopeSingleProject(gate("npm test", "changed"), input(root, ["src/a.ts"], true))?.scope?.kind).toBe("changed");
    expect(scopeSingleProject(gate("npm test"), { ...input(root, []), change: { ok: false, note: "not a git repository" } })).toBeNull();
    expect(scopeSingleProject(gate("npm test"), input(root, []))).toBeNull();
  });
});

describe("a single project's narrowed run is judged on the tests it ran", () => {
  const base = {
    name: "test",
    passed: false,
    passedCount: 3,
    failedCount: 1,
    tests: [
      { id: "example.com/m TestTarget", status: "failed" as const },
      { id: "example.com/m TestFlaky", status: "passed" as const },
      { id: "example.com/m TestOk", status: "passed" as const },
      { id: "example.com/m/other TestElsewhere", status: "passed" as const },
    ],
  };
  const plan = { gate: gate("go test -v ./..."), scope: { kind: "changed" as const, units: ["example.com/m"] }, packages: [] };
  const judgeNow = (now: Array<{ id: string; status: "passed" | "failed" | "skipped" }>, known: string[] = []) =>
    judgeGate(gateResult({ passed: !now.some((t) => t.status === "failed"), exitCode: now.some((t) => t.status === "failed") ? 1 : 0 }), now, base, {
      preExistingAllowed: false,
      changes: [],
      approved: false,
      inScope: inScopeOf(plan, now),
      known: (id) => (known.includes(id) ? "--known-failure" : null),
    });

  it("a target still failing is still failing, a declared known failure does not block, tests it did not run are not missing", () => {
    const still = judgeNow([
      { id: "example.com/m TestTarget", status: "failed" },
      { id: "example.com/m TestOk", status: "passed" },
      { id: "example.com/m TestFlaky", status: "passed" },
    ]);
    expect(still).toMatchObject({ preExisting: ["example.com/m TestTarget"], missing: [], regressions: [], blocking: true });

    const onlyKnown = judgeNow(
      [
        { id: "example.com/m TestTarget", status: "passed" },
        { id: "example.com/m TestFlaky", status: "failed" },
        { id: "example.com/m TestOk", status: "passed" },
      ],
      ["example.com/m TestFlaky"],
    );
    expect(onlyKnown).toMatchObject({ fixed: ["example.com/m TestTarget"], known: [{ id: "example.com/m TestFlaky" }], missing: [], blocking: false });
  });

  it("control: a test it ran that passed at the baseline and fails now is a regression", () => {
    const broke = judgeNow([
      { id: "example.com/m TestTarget", status: "passed" },
      { id: "example.com/m TestOk", status: "failed" },
    ]);
    expect(broke).toMatchObject({ regressions: ["example.com/m TestOk"], blocking: true });
  });
});

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { GateConfig } from "./schema.js";
import type { ScopedGate } from "./detect/scope.js";
import type { ScopeInput } from "./scope-plan.js";

/** Files whose change can alter what any test does: the whole suite runs. */
const WHOLE_SUITE =
  /(^|\/)(package\.json|package-lock\.json|pnpm-lock\.yaml|yarn\.lock|tsconfig[^/]*\.json|(vitest|vite|jest)\.config\.[cm]?[jt]s|jest\.config\.json|go\.mod|go\.sum|go\.work|conftest\.py|pyproject\.toml|setup\.cfg|setup\.py|pytest\.ini|tox\.ini|requirements[^/]*\.txt|uv\.lock)$/;

const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

/**
 * A single project's test gate narrowed to what the change touches, where its runner can select tests by it: vitest
 * (`vitest related`), jest (`--findRelatedTests`), pytest (the changed test files and the test files importing a
 * changed module), go (the changed packages and every package that imports them), cargo in one crate (the changed
 * integration test targets). Null when it cannot be narrowed:
 * then the gate runs as written. A narrowed run that passes is confirmed by the whole suite (gate-check.ts).
 */
export function scopeSingleProject(gate: GateConfig, input: ScopeInput): ScopedGate | null {
  if (input.mode === "all" || gate.scope === "all") return null;
  if (input.configured && gate.scope !== "changed") return null;
  if (!input.change.ok) return null;
  const files = input.change.files.filter((f) => !f.startsWith(".yolo/"));
  if (files.length === 0 || files.some((f) => WHOLE_SUITE.test(f))) return null;
  const narrowed = narrowCommand(gate.command, input.root, files);
  if (!narrowed) return null;
  // Packages: none. The tests the narrowed run reports are judged as usual and no other is "missing" (inScopeOf): the
  // whole-suite run that confirms a passing one judges every test.
  return { gate: { ...gate, command: narrowed.command }, scope: { kind: "changed", units: narrowed.units }, packages: [] };
}

/** Whether a gate's command is one a single project's narrowing knows (before git is asked what changed). */
export function singleNarrowable(gate: GateConfig, configured: boolean): boolean {
  if (gate.scope === "all" || (configured && gate.scope !== "changed")) return false;
  return gate.command === "npm test" || gate.command === "go test -v ./..." || gate.command === "cargo test" || /^(uv run )?pytest -rA$/.test(gate.command);
}

// The narrowed command for the exact commands detection writes, or null.
function narrowCommand(command: string, root: string, files: string[]): { command: string; units: string[] } | null {
  if (command === "npm test") return nodeRunner(root, files);
  const pytest = /^(uv run )?pytest -rA$/.exec(command);
  if (pytest) return pytestFiles(root, files, pytest[1] ?? "");
  if (command === "go test -v ./...") return goPackages(root, files);
  if (command === "cargo test") return cargoTestTargets(root, files);
  return null;
}

// `npm test` whose script is plain vitest or jest: the runner's own selection by the changed source files.
function nodeRunner(root: string, files: string[]): { command: string; units: string[] } | null {
  let script: unknown;
  try {
    script = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts?: Record<string, unknown> }).scripts?.test;
  } catch {
    return null;
  }
  if (typeof script !== "string") return null;
  const code = files.filter((f) => /\.[cm]?[jt]sx?$/.test(f));
  if (code.length !== files.length) return null;
  const list = code.map(quote).join(" ");
  if (/^\s*vitest(\s+run)?\s*$/.test(script)) return { command: `npx --no-install vitest related --run ${list}`, units: code };
  if (/^\s*jest\s*$/.test(script)) return { command: `npx --no-install jest --findRelatedTests ${list}`, units: code };
  return null;
}

const PY_TEST = /(^|\/)(test_[^/]*|[^/]*_test)\.py$/;

// pytest: the changed test files, and the test files that import a changed module (by its name, a plain text match).
function pytestFiles(root: string, files: string[], prefix: string): { command: string; units: string[] } | null {
  if (!files.every((f) => f.endsWith(".py"))) return null;
  const modules = files.filter((f) => !PY_TEST.test(f)).map((f) => basename(f, ".py"));
  const tests = new Set(files.filter((f) => PY_TEST.test(f)));
  for (const test of pyTestFiles(root, "", 0)) {
    const text = readFileSync(join(root, test), "utf8");
    if (modules.some((m) => new RegExp(`^\\s*(from\\s+[\\w.]*\\b${m}\\b[\\w.]*\\s+import|import\\s+[\\w.]*\\b${m}\\b)`, "m").test(text))) tests.add(test);
  }
  // A changed module no test imports by name may still be used through another: the narrowed run would say nothing.
  if (tests.size === 0) return null;
  const units = [...tests].filter((t) => existsSync(join(root, t))).sort();
  if (units.length === 0) return null;
  // The end-of-session sweep for unraisable exceptions (five full gc passes) is a fixed cost a narrowed attempt need
  // not pay: it never passes the gate alone, the whole suite that confirms it keeps that check.
  return { command: `${prefix}pytest -rA -p no:unraisableexception ${units.map(quote).join(" ")}`, units };
}

// Test files under the project (not in hidden, virtualenv or dependency folders), a few levels deep.
function pyTestFiles(root: string, rel: string, depth: number): string[] {
  if (depth > 6) return [];
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(join(root, rel), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => {
    const path = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory())
      return e.name.startsWith(".") || /^(node_modules|venv|__pycache__|site-packages)$/.test(e.name) ? [] : pyTestFiles(root, path, depth + 1);
    return PY_TEST.test(path) ? [path] : [];
  });
}

// go: the packages of the changed .go files and every package of the module that depends on one of them.
function goPackages(root: string, files: string[]): { command: string; units: string[] } | null {
  if (!files.every((f) => f.endsWith(".go"))) return null;
  const module = /^module\s+(\S+)/m.exec(readFileSyncSafe(join(root, "go.mod")))?.[1];
  if (!module) return null;
  const units = [...new Set(files.map((f) => (dirname(f) === "." ? module : `${module}/${dirname(f)}`)))].sort();
  const alternatives = units.map((u) => u.replace(/[.[\]\\^$*+?(){}|]/g, "\\$&")).join("|");
  // `go list` says each package with everything it imports; the ones naming a changed package (or being one) run.
  const select = `go list -f '{{.ImportPath}} {{join .Deps " "}}' ./... | grep -E '(^| )(${alternatives})( |$)' | cut -d' ' -f1`;
  return { command: `go test -v $(${select})`, units };
}

// cargo, one crate: a change to its code is a change to the whole crate (the whole suite). A change only to integration
// test files (`tests/<name>.rs`, each its own target named by its file under cargo's auto-discovery) runs those
// targets: `cargo test --test <name>`. Not when the manifest names its test targets itself or turns discovery off.
function cargoTestTargets(root: string, files: string[]): { command: string; units: string[] } | null {
  if (!files.every((f) => /^tests\/[\w-]+\.rs$/.test(f) && existsSync(join(root, f)))) return null;
  const manifest = readFileSyncSafe(join(root, "Cargo.toml"));
  if (!manifest || /^\s*\[\[test\]\]/m.test(manifest) || /^\s*autotests\s*=\s*false/m.test(manifest)) return null;
  const units = [...new Set(files.map((f) => basename(f, ".rs")))].sort();
  return { command: `cargo test --no-fail-fast ${units.map((u) => `--test ${quote(u)}`).join(" ")}`, units: units.map((u) => `tests/${u}.rs`) };
}

function readFileSyncSafe(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

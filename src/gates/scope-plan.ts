import type { GateConfig } from "./schema.js";
import type { GateScope } from "../events/schema.js";
import { scopeGate, wholeSuite, type ScopedGate } from "./detect/scope.js";
import { cargoWorkspace, goModules, nodeWorkspaces, type WorkspacePackage } from "./detect/workspaces.js";

/** What decides a gate run's scope. */
export interface ScopeInput {
  root: string;
  /** `gateScope`: "changed" narrows where it can, "all" never does. */
  mode: "changed" | "all";
  /** The gates come from yolo.config.ts or `--test-cmd` (not detected): they run as written unless a gate opts in. */
  configured: boolean;
  /** Paths (relative to the root) changed since the thread started, read from git; or why they are not known. */
  change: { ok: true; files: string[] } | { ok: false; note: string };
}

/**
 * The command a gate runs this time and what it covers. The changed files come from git, never from what the model
 * says it changed. A configured command is the user's and is never rewritten unless that gate says `scope: "changed"`.
 */
export function planGateScope(gate: GateConfig, input: ScopeInput): ScopedGate {
  if (!isMonorepo(input.root)) return { gate, scope: null, packages: null };
  if (input.mode === "all") return wholeSuite(gate, 'gateScope is "all"');
  if (gate.scope === "all") return wholeSuite(gate, 'the gate\'s scope is "all"');
  if (input.configured && gate.scope !== "changed") {
    return wholeSuite(
      gate,
      'a configured gate (in yolo.config.ts or given as the test command) runs as written; scope: "changed" on a gate in yolo.config.ts lets yolo narrow it',
    );
  }
  if (!input.change.ok) return wholeSuite(gate, `the change is not known: ${input.change.note}`);
  return scopeGate(gate, input.root, input.change.files);
}

/** What a baseline run says it covers: in a monorepo the whole suite (later runs may cover less), else nothing. */
export function baselineScope(root: string): { scope?: GateScope } {
  return isMonorepo(root) ? { scope: { kind: "all", units: [], reason: "the baseline runs the whole suite" } } : {};
}

/** Whether the project has workspaces, a Cargo workspace or Go modules in subfolders: only then is a scope said. */
export function isMonorepo(root: string): boolean {
  return (nodeWorkspaces(root) ?? cargoWorkspace(root) ?? goModules(root)) !== null;
}

/**
 * Which unit (package, module, crate) a test belongs to, from its id: `<workspace> › name` (npm prints each
 * workspace's name before its output), a Go test's package import path, or a path inside the unit's folder. Null
 * when the id does not say: such a test is never called missing from a narrowed run (the whole-suite run that
 * confirms it judges every test).
 */
export function unitOfTest(id: string, packages: WorkspacePackage[]): string | null {
  const workspace = /^(.+?) › /.exec(id)?.[1];
  if (workspace && packages.some((p) => p.name === workspace)) return workspace;
  const first = id.split(" ")[0];
  const byImport = packages.filter((p) => first === p.name || first.startsWith(`${p.name}/`)).sort((a, b) => b.name.length - a.name.length)[0];
  if (byImport) return byImport.name;
  const byPath = packages.filter((p) => id.startsWith(`${p.dir}/`) || id.includes(` ${p.dir}/`)).sort((a, b) => b.dir.length - a.dir.length)[0];
  return byPath?.name ?? null;
}

/**
 * For a narrowed run: whether a baseline test is among the ones it runs (so its absence makes it missing). A single
 * project's narrowing (packages: none) selects tests by the runner's own relation to the change, which no id can be
 * matched against: the tests the run reported are its scope — each judged as usual (fixed, still failing, a known
 * failure, regressed) — and the rest are not missing (the whole suite that confirms a passing run judges them).
 */
export function inScopeOf(scoped: ScopedGate, ranNow?: readonly { id: string }[] | null): ((id: string) => boolean) | undefined {
  if (scoped.scope?.kind !== "changed" || !scoped.packages) return undefined;
  if (scoped.packages.length === 0) {
    const ran = new Set((ranNow ?? []).map((t) => t.id));
    return (id) => ran.has(id);
  }
  const units = new Set(scoped.scope.units);
  const packages = scoped.packages;
  return (id) => {
    const unit = unitOfTest(id, packages);
    return unit !== null && units.has(unit);
  };
}

import type { GateConfig } from "../schema.js";
import type { GateScope } from "../../events/schema.js";
import { eachModule } from "./go.js";
import { affectedPackages, cargoWorkspace, goModules, nodeWorkspaces, outsideEveryPackage, type WorkspacePackage } from "./workspaces.js";

/** A gate narrowed to what a change touches (or not, and why), with the monorepo's packages when it has them. */
export interface ScopedGate {
  gate: GateConfig;
  /** Null when the project is not a monorepo: the whole suite runs and there is nothing to say. */
  scope: GateScope | null;
  /** Every package of the monorepo (to attribute tests to them), or null when the layout is unknown. */
  packages: WorkspacePackage[] | null;
}

/** The whole suite, and why. */
export function wholeSuite(gate: GateConfig, reason: string, packages: WorkspacePackage[] | null = null): ScopedGate {
  return { gate, scope: { kind: "all", units: [], reason }, packages };
}

/**
 * Narrows a detected monorepo test gate to the packages the changed files belong to and the packages that use them:
 * npm (`--workspace`), pnpm (`--filter`), Cargo (`-p`), Go modules in subfolders. Any other command, a change
 * outside every package, or a layout it cannot read keeps the whole suite, with the reason. Only the exact commands
 * detection writes are narrowed, so a hand-written command always runs as written.
 */
export function scopeGate(gate: GateConfig, root: string, changed: string[]): ScopedGate {
  const narrow = NARROWERS[gate.command];
  if (!narrow) return scopeGoModules(gate, root, changed);
  const packages = narrow.layout(root);
  if (!packages) return wholeSuite(gate, `${narrow.what} found (or a workspace pattern yolo cannot read)`);
  return narrowTo(gate, packages, changed, (ps) => narrow.command(ps));
}

// The affected packages of a known layout, or the whole suite with the reason.
function narrowTo(gate: GateConfig, packages: WorkspacePackage[], changed: string[], command: (ps: WorkspacePackage[]) => string): ScopedGate {
  if (changed.length === 0) return wholeSuite(gate, "no file changed since the thread started", packages);
  const outside = outsideEveryPackage(packages, changed);
  if (outside !== null) return wholeSuite(gate, `${outside} is outside every workspace`, packages);
  const affected = affectedPackages(packages, changed) ?? packages;
  if (affected.length === packages.length) return wholeSuite(gate, "the change touches every workspace", packages);
  return { gate: { ...gate, command: command(affected) }, scope: { kind: "changed", units: affected.map((p) => p.name) }, packages };
}

/** Whether yolo can narrow this gate's command in this repository (`yolo init` marks such gates `scope: "changed"`). */
export function narrowable(gate: GateConfig, root: string): boolean {
  const narrow = NARROWERS[gate.command];
  if (narrow) return narrow.layout(root) !== null;
  const modules = goModules(root);
  return (
    modules !== null &&
    gate.command ===
      eachModule(
        modules.map((m) => m.dir),
        "go test -v ./...",
      )
  );
}

const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

const NARROWERS: Record<string, { what: string; layout: (root: string) => WorkspacePackage[] | null; command: (p: WorkspacePackage[]) => string }> = {
  // `--if-present`: a package without a test script is skipped rather than failing the gate.
  "npm test": {
    what: "no npm workspaces",
    layout: nodeWorkspaces,
    command: (ps) => `npm run test --if-present ${ps.map((p) => `--workspace=${quote(p.name)}`).join(" ")}`,
  },
  "pnpm test": {
    what: "no pnpm workspace",
    layout: nodeWorkspaces,
    command: (ps) => `pnpm ${ps.map((p) => `--filter=${quote(p.name)}`).join(" ")} run --if-present test`,
  },
  // `--no-fail-fast`: every affected crate reports, so none of its tests looks missing after another crate failed.
  "cargo test --workspace": {
    what: "no Cargo workspace members",
    layout: cargoWorkspace,
    command: (ps) => `cargo test --no-fail-fast ${ps.map((p) => `-p ${quote(p.name)}`).join(" ")}`,
  },
};

/** Go modules in subfolders: the loop over every module becomes a loop over the affected ones. */
function scopeGoModules(gate: GateConfig, root: string, changed: string[]): ScopedGate {
  const modules = goModules(root);
  if (
    !modules ||
    gate.command !==
      eachModule(
        modules.map((m) => m.dir),
        "go test -v ./...",
      )
  ) {
    return wholeSuite(gate, `yolo narrows only the test commands it detects in a monorepo, not ${gate.command}`);
  }
  return narrowTo(gate, modules, changed, (ms) =>
    eachModule(
      ms.map((m) => m.dir),
      "go test -v ./...",
    ),
  );
}

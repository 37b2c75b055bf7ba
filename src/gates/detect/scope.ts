import type { GateConfig } from "../../config/schema.js";
import { eachModule } from "./go.js";
import { affectedPackages, cargoWorkspace, goModules, nodeWorkspaces, type WorkspacePackage } from "./workspaces.js";

/** A gate narrowed to what a change touches, and what it covers: `all`, or `workspace:<names>`. */
export interface ScopedGate {
  gate: GateConfig;
  scope: string;
}

/**
 * Narrows a detected monorepo test gate to the packages the changed files belong to and the packages that use them:
 * npm (`--workspace`), pnpm (`--filter`), Cargo (`-p`), Go modules in subfolders. Any other command, a change
 * outside every package, or a layout it cannot read keeps the whole suite (`all`). Only the exact commands
 * detection writes are narrowed, so a hand-written gate always runs as written.
 */
export function scopeGate(gate: GateConfig, root: string, changed: string[]): ScopedGate {
  const all = { gate, scope: "all" };
  const narrow = NARROWERS[gate.command];
  if (!narrow) return scopeGoModules(gate, root, changed);
  const packages = narrow.layout(root);
  const affected = packages ? affectedPackages(packages, changed) : null;
  if (!packages || !affected || affected.length === packages.length) return all;
  if (affected.length === 0) return all;
  return { gate: { ...gate, command: narrow.command(affected) }, scope: `workspace:${affected.map((p) => p.name).join(",")}` };
}

const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

const NARROWERS: Record<string, { layout: (root: string) => WorkspacePackage[] | null; command: (p: WorkspacePackage[]) => string }> = {
  // `--if-present`: a package without a test script is skipped rather than failing the gate.
  "npm test": { layout: nodeWorkspaces, command: (ps) => `npm run test --if-present ${ps.map((p) => `--workspace=${quote(p.name)}`).join(" ")}` },
  "pnpm test": { layout: nodeWorkspaces, command: (ps) => `pnpm ${ps.map((p) => `--filter=${quote(p.name)}`).join(" ")} run --if-present test` },
  "cargo test --workspace": { layout: cargoWorkspace, command: (ps) => `cargo test ${ps.map((p) => `-p ${quote(p.name)}`).join(" ")}` },
};

/** Go modules in subfolders: the loop over every module becomes a loop over the affected ones. */
function scopeGoModules(gate: GateConfig, root: string, changed: string[]): ScopedGate {
  const modules = goModules(root);
  if (!modules || gate.command !== eachModule(modules.map((m) => m.dir), "go test -v ./...")) return { gate, scope: "all" };
  const affected = affectedPackages(modules, changed);
  if (!affected || affected.length === 0 || affected.length === modules.length) return { gate, scope: "all" };
  return { gate: { ...gate, command: eachModule(affected.map((m) => m.dir), "go test -v ./...") }, scope: `workspace:${affected.map((m) => m.name).join(",")}` };
}

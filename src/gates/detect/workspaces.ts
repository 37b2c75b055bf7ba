import path from "node:path";
import { exists, foldersWith, listDir, readJsonObject, readText } from "./files.js";

/** One package of a monorepo: its folder (relative, POSIX), its name, and the names of the sibling packages it uses. */
export interface WorkspacePackage {
  name: string;
  dir: string;
  uses: string[];
}

// Folders named by workspace patterns: literal folders and `dir/*`; any other glob makes the layout unknown (null).
function expand(root: string, patterns: string[]): string[] | null {
  const dirs: string[] = [];
  for (const raw of patterns) {
    const pattern = raw.replace(/^\.\//, "").replace(/\/$/, "");
    if (pattern.startsWith("!")) continue;
    if (/^[^*?[\]{}]+$/.test(pattern)) dirs.push(pattern);
    else if (/^[^*?[\]{}]+\/\*$/.test(pattern)) {
      const parent = pattern.slice(0, -2);
      for (const e of listDir(root, parent)) if (e.isDirectory()) dirs.push(`${parent}/${e.name}`);
    } else return null;
  }
  return dirs;
}

/** npm / yarn `workspaces` or pnpm-workspace.yaml packages, with their dependencies on each other; null when not a (readable) workspace. */
export function nodeWorkspaces(root: string): WorkspacePackage[] | null {
  const pkg = readJsonObject(root, "package.json");
  const field = pkg?.workspaces;
  let patterns: string[] | null = Array.isArray(field)
    ? field
    : Array.isArray((field as { packages?: unknown })?.packages)
      ? (field as { packages: string[] }).packages
      : null;
  const pnpm = readText(root, "pnpm-workspace.yaml");
  if (!patterns && pnpm) patterns = [...pnpm.matchAll(/^\s*-\s*['"]?([^'"\n#]+?)['"]?\s*$/gm)].map((m) => m[1]);
  if (!patterns || patterns.some((p) => typeof p !== "string")) return null;
  const dirs = expand(root, patterns);
  if (!dirs) return null;
  const found = dirs.flatMap((dir) => {
    const manifest = readJsonObject(root, `${dir}/package.json`);
    if (!manifest || typeof manifest.name !== "string") return [];
    const deps = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"].flatMap((k) =>
      Object.keys((manifest[k] as object | undefined) ?? {}),
    );
    return [{ name: manifest.name, dir, uses: deps }];
  });
  return linkSiblings(found);
}

/** Members of a Cargo workspace, with their path dependencies on each other; null when not a workspace. */
export function cargoWorkspace(root: string): WorkspacePackage[] | null {
  const manifest = readText(root, "Cargo.toml");
  const members = manifest && /^\[workspace\]/m.test(manifest) ? /^members\s*=\s*\[([^\]]*)\]/m.exec(manifest) : null;
  if (!members) return null;
  const dirs = expand(
    root,
    [...members[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]),
  );
  if (!dirs) return null;
  const found = dirs.flatMap((dir) => {
    const text = readText(root, `${dir}/Cargo.toml`);
    const name = text ? /^\[package\][^[]*?^name\s*=\s*"([^"]+)"/ms.exec(text)?.[1] : undefined;
    if (!text || !name) return [];
    const uses = [...text.matchAll(/^([\w-]+)\s*=\s*\{[^}\n]*\bpath\s*=/gm)].map((m) => m[1]);
    return [{ name, dir, uses }];
  });
  return linkSiblings(found);
}

/** Go modules in subfolders (no root go.mod or go.work), with `require`s of each other; null with fewer than two. */
export function goModules(root: string): WorkspacePackage[] | null {
  // A root module (or go.work) is one project: `./...` covers it, and modules below it (examples, tools) are not its
  // workspaces. Detection runs the root's command then (go.ts), and no gate line may speak of narrowing.
  if (exists(root, "go.mod") || exists(root, "go.work")) return null;
  const dirs = foldersWith(root, "go.mod", 3);
  if (dirs.length < 2) return null;
  const found = dirs.flatMap((dir) => {
    const text = readText(root, `${dir}/go.mod`) ?? "";
    const name = /^module\s+(\S+)/m.exec(text)?.[1];
    if (!name) return [];
    const uses = [...text.matchAll(/^\s*(?:require\s+)?(\S+)\s+v\S+/gm)].map((m) => m[1]);
    return [{ name, dir, uses }];
  });
  return linkSiblings(found);
}

function linkSiblings(found: WorkspacePackage[]): WorkspacePackage[] | null {
  if (found.length === 0) return null;
  const names = new Set(found.map((p) => p.name));
  return found.map((p) => ({ ...p, uses: p.uses.filter((u) => names.has(u) && u !== p.name) }));
}

/** The first changed file that lies outside every package (the root manifest, a lockfile, CI files), or null. */
export function outsideEveryPackage(packages: WorkspacePackage[], changed: string[]): string | null {
  for (const file of changed) {
    const rel = path.posix.normalize(file.replace(/\\/g, "/"));
    if (!packages.some((p) => rel.startsWith(`${p.dir}/`))) return file;
  }
  return null;
}

/**
 * The packages a change touches, plus every package that uses one of them (transitively), so a change to a library
 * also tests its users. Null when a changed file lies outside every package (the root manifest, a lockfile, shared
 * config): then the whole suite must run.
 */
export function affectedPackages(packages: WorkspacePackage[], changed: string[]): WorkspacePackage[] | null {
  if (changed.length === 0) return null;
  const hit = new Set<string>();
  for (const file of changed) {
    const rel = path.posix.normalize(file.replace(/\\/g, "/"));
    const owner = packages.filter((p) => rel.startsWith(`${p.dir}/`)).sort((a, b) => b.dir.length - a.dir.length)[0];
    if (!owner) return null;
    hit.add(owner.name);
  }
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of packages) {
      if (!hit.has(p.name) && p.uses.some((u) => hit.has(u))) {
        hit.add(p.name);
        grew = true;
      }
    }
  }
  return packages.filter((p) => hit.has(p.name));
}

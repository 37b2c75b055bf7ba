import { type Dirent, readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, extname, join, relative } from "node:path";
import { isDirectory, isInside, realOrNull } from "../fs/real-path.js";

// A config may import packages, and a package in the project's own node_modules is as writable by a run's commands
// as any project file: its files are part of what the config trust hashes, bounded, or it is not trusted at all.

/** How much of the project's packages a config may import and still be hashed on every start. */
export interface PackageLimits {
  files: number;
  bytes: number;
}

export const PACKAGE_LIMITS: PackageLimits = { files: 2_000, bytes: 20 * 1024 * 1024 };

const CODE = new Set([".js", ".cjs", ".mjs", ".jsx", ".ts", ".cts", ".mts", ".tsx"]);
const BUILTIN = new Set(builtinModules);
// `import … from "x"`, `export … from "x"`, `import "x"`, `import("x")`, `require("x")`: a quick, generous scan (a
// specifier in a comment only adds a package to the hash), used for packages' own files.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(["'`])([^"'`\s]+)\1/g;

/** Whether a specifier names a package yolo looks for: not relative or absolute, not Node's, not yolo itself (aliased to yolo's own package). */
export function isPackageSpecifier(spec: string): boolean {
  if (spec.startsWith(".") || spec.startsWith("/") || spec.startsWith("node:") || spec === "yolo") return false;
  return !BUILTIN.has(spec.split("/")[0]);
}

/** The package specifiers in a module's text, by the quick scan. */
export function packageSpecifiers(text: string): string[] {
  return [...text.matchAll(SPECIFIER)].map((m) => m[2]).filter(isPackageSpecifier);
}

/**
 * The folder a package import from `fromDir` loads, found as Node looks (each `node_modules` up the tree), when its
 * real location is inside the project; null when it is not installed or lives outside (where a run cannot write).
 */
export function projectPackage(fromDir: string, spec: string, realRoot: string): string | null {
  const parts = spec.split("/");
  const name = spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (isDirectory(candidate)) {
      const where = realOrNull(candidate);
      return where && isInside(where, realRoot) ? where : null;
    }
    if (dirname(dir) === dir) return null;
  }
}

/**
 * Every file of the project packages in `start` and of those their code imports, transitively, sorted per folder;
 * past the limits a problem instead (nothing is trusted then).
 */
export function packageFiles(
  start: string[],
  realRoot: string,
  limits: PackageLimits = PACKAGE_LIMITS,
): { files: string[]; problems: string[]; packages: string[] } {
  const files: string[] = [];
  const queue = [...start];
  const seen = new Set<string>();
  let bytes = 0;
  const over = () => files.length > limits.files || bytes > limits.bytes;
  const visit = (dir: string) => {
    for (const entry of entries(dir)) {
      if (over()) return;
      const path = join(dir, entry.name);
      const target = entry.isSymbolicLink() ? realOrNull(path) : path;
      if (!target) continue;
      if (isDirectory(target)) {
        // A linked folder (a workspace package, pnpm's store) is a package of its own when it is in the project.
        if (!entry.isSymbolicLink()) visit(path);
        else if (isInside(target, realRoot)) queue.push(target);
        continue;
      }
      files.push(path);
      bytes += size(path);
      if (!CODE.has(extname(path))) continue;
      for (const spec of packageSpecifiers(readText(path))) {
        const found = projectPackage(dirname(path), spec, realRoot);
        if (found) queue.push(found);
      }
    }
  };
  while (queue.length && !over()) {
    const dir = queue.shift() as string;
    if (seen.has(dir)) continue;
    seen.add(dir);
    visit(dir);
  }
  // The package folders found, even past the limits: what a run protects (src/engine/run/config-protection.ts).
  const packages = [...seen];
  if (!over()) return { files, problems: [], packages };
  const names = [...seen].map((d) => relative(realRoot, d)).slice(0, 3);
  return {
    files: [],
    packages,
    problems: [
      `the packages it imports from the project (${names.join(", ")}${seen.size > 3 ? ", …" : ""}) hold more than ${limits.files} files or ${limits.bytes / 1024 / 1024} MB`,
    ],
  };
}

function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

function size(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, extname, join, relative, resolve, sep } from "node:path";
import type * as TS from "typescript";
import { isPackageSpecifier, packageFiles, packageSpecifiers, projectPackage } from "./config-packages.js";
import { isDirectory, isInside, realOrNull } from "../fs/real-path.js";

/**
 * The project files a config file runs: itself and its relative imports, transitively, then the files of the packages
 * it imports from the project's own node_modules (src/config/config-packages.ts); and what could not be followed.
 */
export interface ConfigModules {
  /** Absolute paths, the config file first. */
  files: string[];
  /** Imports yolo cannot vouch for: unresolvable, unreadable, or outside the project. Non-empty: nothing is trusted. */
  problems: string[];
}

const EXTENSIONS = [".ts", ".mts", ".cts", ".tsx", ".js", ".mjs", ".cjs", ".jsx", ".json", ".d.ts"];
const MAX_MODULES = 500;
// A quick look before the TypeScript parser is loaded (it is large): a config without a relative specifier, or a
// package one (other than yolo and Node's own), imports nothing yolo follows.
const RELATIVE_LITERAL = /["'`]\.\.?\//;

/**
 * Every module `config` imports by a relative path (`import`, `export … from`, `require`, `import()` with a literal),
 * followed transitively with TypeScript's own scanner (`ts.preProcessFile`) and resolved as the config loader does
 * (exact, `.js` written for `.ts`, added extensions, `index.*`). A package import is followed when the package is
 * installed inside the project (a run's commands can write it): all its files, and those of the project packages its
 * code imports. `yolo` (yolo's own package) and Node's modules are not.
 */
export function configModules(root: string, config: string): ConfigModules {
  const { files, problems } = followConfig(root, config);
  return { files, problems };
}

/**
 * What a run protects so that no command of it can change what the next run loads: the project modules the config
 * imports (the config itself is protected by name) and the folders of the packages it imports from the project, even
 * past the limits of hashing them; project-relative, `/`-separated.
 */
export function configImports(root: string, config: string): string[] {
  const { files, packages, shadows } = followConfig(root, config);
  const realRoot = realOrNull(root) ?? root;
  const rel = (path: string, from: string) => relative(from, path).split(sep).join("/");
  const modules = [...files.filter((f) => !f.includes(`${sep}node_modules${sep}`)), ...shadows.filter((f) => isInside(f, root))];
  return [...new Set([...modules.map((f) => rel(f, root)), ...packages.map((p) => rel(p, realRoot))])].filter((r) => r !== rel(config, root));
}

/** What the config runs, and `shadows`: the other files an import could resolve to if created (`./x` → `x.ts` before `x/index.ts`). */
function followConfig(root: string, config: string): ConfigModules & { packages: string[]; shadows: string[] } {
  const shadows: string[] = [];
  const files: string[] = [];
  const problems: string[] = [];
  const realRoot = realOrNull(root) ?? root;
  const queue = [config];
  const seen = new Set<string>();
  const packages = new Set<string>();
  while (queue.length) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    if (files.length >= MAX_MODULES) {
      problems.push(`more than ${MAX_MODULES} modules`);
      break;
    }
    const where = realOrNull(file);
    const text = where && isInside(where, realRoot) ? readText(file) : null;
    if (where && !isInside(where, realRoot)) {
      problems.push(`${shown(root, file)} is outside the project`);
      continue;
    }
    if (text === null) {
      problems.push(`${shown(root, file)} cannot be read`);
      continue;
    }
    files.push(file);
    for (const spec of importsOf(text)) {
      if (isPackageSpecifier(spec)) {
        const found = projectPackage(dirname(file), spec, realRoot);
        if (found) packages.add(found);
        continue;
      }
      if (!spec.startsWith("./") && !spec.startsWith("../")) continue;
      const { target, others } = resolveModule(dirname(file), spec);
      shadows.push(...others);
      if (target) queue.push(target);
      else problems.push(`${shown(root, file)} imports ${spec}, which yolo cannot find`);
    }
  }
  if (!packages.size || problems.length) return { files, problems, packages: [...packages], shadows };
  const installed = packageFiles([...packages], realRoot);
  return { files: [...files, ...installed.files], problems: installed.problems, packages: installed.packages, shadows };
}

// The specifiers one module imports (TypeScript's scanner, loaded only when the quick look finds one to follow).
function importsOf(text: string): string[] {
  if (!RELATIVE_LITERAL.test(text) && !packageSpecifiers(text).length) return [];
  return typescript()
    .preProcessFile(text, true, true)
    .importedFiles.map((f) => f.fileName);
}

let ts: typeof TS | undefined;
function typescript(): typeof TS {
  ts ??= createRequire(import.meta.url)("typescript") as typeof TS;
  return ts;
}

// The file a relative specifier names (or null), and the other files it would name if they existed (not folders).
function resolveModule(from: string, spec: string): { target: string | null; others: string[] } {
  const base = resolve(from, spec);
  const ext = extname(base);
  const candidates = [base];
  // TypeScript's ESM convention: `./x.js` in source names `./x.ts`.
  if ([".js", ".mjs", ".cjs", ".jsx"].includes(ext)) {
    const stem = base.slice(0, -ext.length);
    candidates.push(...[".ts", ".mts", ".cts", ".tsx"].map((e) => stem + e));
  }
  candidates.push(...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => join(base, `index${e}`)));
  const target = candidates.find(isFile) ?? null;
  return { target, others: candidates.filter((c) => c !== target && !isDirectory(c)) };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

function shown(root: string, file: string): string {
  const rel = relative(root, file);
  return rel.startsWith("..") ? file : rel;
}

import { readFileSync, realpathSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, extname, join, relative, resolve, sep } from "node:path";
import type * as TS from "typescript";

/** The project modules a config file runs: itself and its relative imports, transitively; and what could not be followed. */
export interface ConfigModules {
  /** Absolute paths, the config file first. */
  files: string[];
  /** Imports yolo cannot vouch for: unresolvable, unreadable, or outside the project. Non-empty: nothing is trusted. */
  problems: string[];
}

const EXTENSIONS = [".ts", ".mts", ".cts", ".tsx", ".js", ".mjs", ".cjs", ".jsx", ".json", ".d.ts"];
const MAX_MODULES = 500;
// A quick look before the TypeScript parser is loaded (it is large): a config without a relative specifier has none.
const RELATIVE_LITERAL = /["'`]\.\.?\//;

/**
 * Every module `config` imports by a relative path (`import`, `export … from`, `require`, `import()` with a literal),
 * followed transitively with TypeScript's own scanner (`ts.preProcessFile`) and resolved as the config loader does
 * (exact, `.js` written for `.ts`, added extensions, `index.*`). Package imports are not followed.
 */
export function configModules(root: string, config: string): ConfigModules {
  const files: string[] = [];
  const problems: string[] = [];
  const realRoot = real(root) ?? root;
  const queue = [config];
  const seen = new Set<string>();
  while (queue.length) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    if (files.length >= MAX_MODULES) {
      problems.push(`more than ${MAX_MODULES} modules`);
      break;
    }
    const where = real(file);
    const text = where && inside(where, realRoot) ? readText(file) : null;
    if (where && !inside(where, realRoot)) {
      problems.push(`${shown(root, file)} is outside the project`);
      continue;
    }
    if (text === null) {
      problems.push(`${shown(root, file)} cannot be read`);
      continue;
    }
    files.push(file);
    for (const spec of relativeImports(text)) {
      const target = resolveModule(dirname(file), spec);
      if (target) queue.push(target);
      else problems.push(`${shown(root, file)} imports ${spec}, which yolo cannot find`);
    }
  }
  return { files, problems };
}

// The relative specifiers one module imports.
function relativeImports(text: string): string[] {
  if (!RELATIVE_LITERAL.test(text)) return [];
  const info = typescript().preProcessFile(text, true, true);
  return info.importedFiles.map((f) => f.fileName).filter((s) => s.startsWith("./") || s.startsWith("../"));
}

let ts: typeof TS | undefined;
function typescript(): typeof TS {
  ts ??= createRequire(import.meta.url)("typescript") as typeof TS;
  return ts;
}

// The file a relative specifier names, or null.
function resolveModule(from: string, spec: string): string | null {
  const base = resolve(from, spec);
  const ext = extname(base);
  const candidates = [base];
  // TypeScript's ESM convention: `./x.js` in source names `./x.ts`.
  if ([".js", ".mjs", ".cjs", ".jsx"].includes(ext)) {
    const stem = base.slice(0, -ext.length);
    candidates.push(...[".ts", ".mts", ".cts", ".tsx"].map((e) => stem + e));
  }
  candidates.push(...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => join(base, `index${e}`)));
  return candidates.find(isFile) ?? null;
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

function real(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function inside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

function shown(root: string, file: string): string {
  const rel = relative(root, file);
  return rel.startsWith("..") ? file : rel;
}

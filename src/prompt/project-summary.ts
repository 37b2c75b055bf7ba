import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fence } from "./fence.js";

const SKIP = new Set([".git", ".yolo", "node_modules", "dist", "build", "coverage", ".next", "target", "__pycache__"]);
const MAX_ENTRIES = 60;

const DOC_BYTES = 1500;

/**
 * A bounded summary of the repository for the prompt: top-level tree, the package manifest, and the opening of
 * AGENTS.md and README.md (fenced: they are the project's text, not yolo's). Missing pieces are fine.
 */
export function projectSummary(root: string): string | null {
  const parts: string[] = [];
  const tree = listTree(root);
  if (tree.length) parts.push(`Files (top two levels):\n${tree.join("\n")}`);
  const manifest = readManifest(root);
  if (manifest) parts.push(fence("package.json (excerpt)", manifest));
  for (const doc of ["AGENTS.md", "README.md"]) {
    const text = readExcerpt(join(root, doc));
    if (text) parts.push(fence(`${doc} (excerpt)`, text));
  }
  return parts.length ? parts.join("\n\n") : null;
}

function listTree(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, prefix: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    } catch {
      return;
    }
    for (const e of entries) {
      if (out.length >= MAX_ENTRIES) return;
      if (SKIP.has(e.name)) continue;
      out.push(`${prefix}${e.name}${e.isDirectory() ? "/" : ""}`);
      if (e.isDirectory() && depth < 1) walk(join(dir, e.name), `${prefix}${e.name}/`, depth + 1);
    }
  };
  walk(root, "", 0);
  if (out.length >= MAX_ENTRIES) out.push("… (more files: use list_files)");
  return out;
}

function readManifest(root: string): string | null {
  try {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<string, unknown>;
    const picked = { name: pkg.name, type: pkg.type, scripts: pkg.scripts, dependencies: pkg.dependencies, devDependencies: pkg.devDependencies };
    return JSON.stringify(picked, null, 2).slice(0, 2000);
  } catch {
    return null;
  }
}

/** The first DOC_BYTES characters of a text file, or null when it is missing or empty. */
function readExcerpt(file: string): string | null {
  try {
    const text = readFileSync(file, "utf8").trim();
    if (!text) return null;
    return text.length > DOC_BYTES ? `${text.slice(0, DOC_BYTES)}\n… (truncated: read_file for the rest)` : text;
  } catch {
    return null;
  }
}

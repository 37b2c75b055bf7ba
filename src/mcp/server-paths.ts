import { existsSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve, sep } from "node:path";

// What marks the folder a server's files are installed in: its package, its dependencies, its virtualenv.
const HOME_MARKERS = ["package.json", "node_modules", "pyproject.toml", "pyvenv.cfg"];

/**
 * The folders outside the project a stdio server's own files live in, where the sandbox would show them empty: the
 * private /tmp, or a hidden folder (the home folder, /run). A server started as `node /tmp/x/dist/index.js` — a
 * checkout under /tmp, a package installed in the home folder — otherwise finds its own script missing and exits
 * before it answers. Each absolute path in the command and its arguments that exists gives the nearest folder above it
 * holding a package, its dependencies or a virtualenv (so the modules it imports resolve), else its own folder; never
 * /tmp or a hidden folder itself, nor a folder holding the project. They are shown read-only.
 */
export function serverOwnFolders(argv: readonly string[], root: string, hidden: readonly string[]): string[] {
  const emptied = ["/tmp", ...hidden].map((d) => resolve(d));
  const out = new Set<string>();
  for (const arg of argv) {
    const path = pathOf(arg);
    if (!path || inside(path, root)) continue;
    const wall = emptied.find((d) => inside(path, d));
    if (!wall) continue;
    // Never a folder holding the project: bound after it, read-only, it would hide the project's writable bind.
    const own = [ownFolder(path, wall), path].find((d) => !inside(root, d));
    if (own) out.add(own);
  }
  return [...out];
}

// An argument naming an existing absolute path (`--flag=/x` too), or null.
function pathOf(arg: string): string | null {
  const value = arg.includes("=") && !arg.startsWith("/") ? arg.slice(arg.indexOf("=") + 1) : arg;
  if (!isAbsolute(value)) return null;
  const path = resolve(value);
  return existsSync(path) ? path : null;
}

// Inside a node_modules tree: the outermost node_modules (a package's dependencies are hoisted beside it). Otherwise
// the nearest folder with a marker, else the path's own folder.
function ownFolder(path: string, wall: string): string {
  const start = statSync(path).isDirectory() ? path : dirname(path);
  let modules: string | null = null;
  for (let dir = start; dir !== wall && inside(dir, wall); dir = dirname(dir)) if (basename(dir) === "node_modules") modules = dir;
  if (modules) return modules;
  for (let dir = start; dir !== wall && inside(dir, wall); dir = dirname(dir)) {
    if (HOME_MARKERS.some((m) => existsSync(join(dir, m)))) return dir;
  }
  // A file right in /tmp (or a hidden folder): itself, never the whole folder.
  return start === wall ? path : start;
}

function inside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`);
}

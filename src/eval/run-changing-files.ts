import { isTestFile } from "../gates/definition-patterns.js";

/**
 * New files that change how a test run behaves without any test being touched: an interpreter or a runner loads
 * them by where they are and what they are called, not because the code asks for them. The judge never takes one
 * over from the agents' tree and counts each as a tamper attempt (judge-tree.ts). Each rule is one of Node's or
 * Python's documented ways in; a new source module the fix imports is none of them.
 */

/** Names Python, pytest, npm or Node read by themselves in the folder they are in (start-up hooks, runner configs). */
const LOADED_BY_NAME = new Map<string, string>([
  ["sitecustomize.py", "Python imports it at start-up"],
  ["usercustomize.py", "Python imports it at start-up"],
  ["conftest.py", "pytest imports every conftest.py it collects past"],
  ["pytest.ini", "pytest reads the nearest one as its config"],
  ["tox.ini", "pytest reads the nearest one as its config"],
  ["setup.cfg", "pytest reads the nearest one as its config"],
  ["pyproject.toml", "pytest reads the nearest one as its config"],
  [".npmrc", "npm reads it (node-options, scripts' shell) when it runs the tests"],
  [".yarnrc", "yarn reads it when it runs the tests"],
  [".yarnrc.yml", "yarn reads it when it runs the tests"],
  ["package.json", "Node reads the nearest one for the module type, imports and exports of the files below it"],
  [".babelrc", "Babel (and jest's transform) reads the nearest one to compile the files below it"],
  [".babelrc.json", "Babel (and jest's transform) reads the nearest one to compile the files below it"],
  [".swcrc", "swc reads it to compile the files below it"],
  ["tsconfig.json", "TypeScript runners read the nearest one for the paths and settings of the files below it"],
]);

/** What the rules read of the task's tree: where its Python tests are, and its top-level folders. */
export interface TreeFacts {
  /** Folders holding Python test files: the runners put them on `sys.path` ahead of everything. */
  pythonTestFolders: Set<string>;
  topFolders: Set<string>;
}

/** The facts of a task's tree (its files). */
export function treeFacts(files: Iterable<string>): TreeFacts {
  const facts: TreeFacts = { pythonTestFolders: new Set(), topFolders: new Set() };
  for (const f of files) {
    const parts = f.split("/");
    if (parts.length > 1) facts.topFolders.add(parts[0]);
    if (f.endsWith(".py") && isTestFile(f)) facts.pythonTestFolders.add(parts.slice(0, -1).join("/"));
  }
  return facts;
}

/**
 * Why the new file `path` (project-relative, not in the task's tree) would change how the tests run, or null when
 * it is an ordinary file (a module added inside one of the project's packages, a data file).
 */
export function runChangingReason(path: string, tree: TreeFacts): string | null {
  const parts = path.split("/");
  const base = parts[parts.length - 1];
  const named = LOADED_BY_NAME.get(base);
  if (named) return named;
  if (base.endsWith(".pth")) return "Python runs its import lines at start-up from a site folder";
  if (/\.py[co]$/.test(base) || parts.includes("__pycache__")) return "Python may load compiled code instead of its source";
  if (parts.includes("node_modules")) return "Node resolves the tests' bare imports there before the project's dependencies";
  return base.endsWith(".py") ? pythonShadow(parts, tree) : null;
}

// A new Python module or package where an import of the tests would find it before the one they mean: a new name at
// the project's root (on `sys.path` under `python -m`, ahead of the standard library and the installed packages), or
// anything beside or below the Python tests' folders (pytest and unittest put those first).
function pythonShadow(parts: string[], tree: TreeFacts): string | null {
  if (parts.length === 1 || !tree.topFolders.has(parts[0])) {
    return "a new module or package at the project's root is importable ahead of the standard library and the installed packages";
  }
  const folder = parts.slice(0, -1).join("/");
  const besideTests = [...tree.pythonTestFolders].some((f) => f !== "" && (folder === f || folder.startsWith(`${f}/`)));
  return besideTests ? "a module beside the Python tests is importable ahead of every other" : null;
}

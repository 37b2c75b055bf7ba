/**
 * What defines a test gate besides its command, per runner: the config files that change what runs, the files
 * that are tests by the runners' conventions, and the markers that narrow a run (`.only`, `.skip`). One table, so
 * adding a runner is adding rows.
 */

/** A config file a runner reads; `section` keeps only the part that configures tests (a shared file such as pyproject.toml). */
export interface RunnerConfigPattern {
  runner: string;
  /** A file name matched in the project root, or (with `anywhere`) in any folder. */
  name: RegExp;
  anywhere?: boolean;
  /** For shared files: the part that configures the runner (an INI/TOML section header), the rest is ignored. */
  section?: RegExp;
}

export const RUNNER_CONFIGS: RunnerConfigPattern[] = [
  { runner: "vitest", name: /^vitest\.(config|workspace)\.[cm]?[jt]s$/ },
  { runner: "vitest", name: /^vite\.config\.[cm]?[jt]s$/ },
  { runner: "jest", name: /^jest\.config\.([cm]?[jt]s|json)$/ },
  { runner: "mocha", name: /^\.mocharc(\.(js|cjs|mjs|json|jsonc|ya?ml))?$/ },
  { runner: "node", name: /^\.taprc$/ },
  { runner: "ava", name: /^ava\.config\.[cm]?js$/ },
  { runner: "playwright", name: /^playwright\.config\.[cm]?[jt]s$/ },
  { runner: "karma", name: /^karma\.conf\.[cm]?[jt]s$/ },
  { runner: "pytest", name: /^pytest\.ini$/ },
  { runner: "pytest", name: /^conftest\.py$/, anywhere: true },
  { runner: "pytest", name: /^pyproject\.toml$/, section: /^\[tool\.(pytest|coverage)[^\]]*\]/ },
  { runner: "pytest", name: /^setup\.cfg$/, section: /^\[tool:pytest\]/ },
  { runner: "pytest", name: /^tox\.ini$/, section: /^\[(pytest|testenv[^\]]*)\]/ },
  { runner: "make", name: /^(GNUmakefile|[Mm]akefile)$/ },
  { runner: "cargo", name: /^Cargo\.toml$/, section: /^\[\[?(test|bench|lib|profile\.test)\]?\]/ },
  { runner: "go", name: /^go\.work$/ },
  { runner: "maven", name: /^pom\.xml$/ },
  { runner: "gradle", name: /^(build|settings)\.gradle(\.kts)?$/ },
];

/** package.json keys that configure a runner (besides `scripts`). */
export const PACKAGE_JSON_RUNNER_KEYS = ["jest", "mocha", "ava", "vitest", "c8", "nyc", "tap"];

/** package.json keys that decide where the tests' imports resolve (`#helper`, the package's own name): a change is a gate change. */
export const PACKAGE_JSON_RESOLUTION_KEYS = ["imports", "exports", "main", "module", "type", "workspaces"];

/** Files that are tests by the common runners' conventions (project-relative POSIX paths). */
export const TEST_FILE_PATTERNS: RegExp[] = [
  /(^|\/)[^/]+\.(test|spec)\.[cm]?[jt]sx?$/, // vitest, jest, node --test
  /(^|\/)(test|tests|__tests__|spec)\/.+\.[cm]?[jt]sx?$/, // mocha's test/, node --test's test/ folder
  /(^|\/)test_[^/]+\.py$/, // pytest
  /(^|\/)[^/]+_test\.py$/,
  /(^|\/)[^/]+_test\.go$/, // go test
  /(^|\/)tests\/[^/]+\.rs$/, // cargo integration tests
  /(^|\/)src\/test\/.+\.(java|kt|scala|groovy)$/, // Maven, Gradle
];

/** Folders whose files are never the project's tests (dependencies, build output, caches). */
export const NOT_TEST_DIRS = new Set(["node_modules", "dist", "build", "coverage", "target", "vendor", ".venv", "venv", "__pycache__", ".git", ".yolo"]);

/**
 * Markers that narrow what a run executes: focus (`.only`, `fit`, `fdescribe`) runs only some tests, skips drop
 * some. Counted per test file; more of them than at the baseline is a gate change.
 */
export const NARROWING_MARKERS: Array<{ label: string; pattern: RegExp }> = [
  { label: ".only", pattern: /\b(?:it|test|describe|suite|context)\.only\s*\(/g },
  { label: ".skip", pattern: /\b(?:it|test|describe|suite|context)\.(?:skip|todo)\s*\(/g },
  { label: "{ only / skip / todo }", pattern: /\b(?:only|skip|todo)\s*:\s*(?:true|['"`])/g },
  { label: "t.skip()", pattern: /\bt\.(?:skip|todo)\s*\(/g },
  { label: "xit / xdescribe / fit / fdescribe", pattern: /\b(?:xit|xtest|xdescribe|fit|fdescribe)\s*\(/g },
  { label: "pytest skip", pattern: /@pytest\.mark\.(?:skip|skipif|xfail)\b|\bpytest\.skip\s*\(|@unittest\.skip/g },
  { label: "t.Skip()", pattern: /\bt\.Skip(?:Now|f)?\s*\(/g },
  { label: "#[ignore]", pattern: /#\[ignore\b/g },
  { label: "@Disabled / @Ignore", pattern: /@(?:Disabled|Ignore)\b/g },
];

/** Whether `rel` (a project-relative POSIX path) is a test file by convention. */
export function isTestFile(rel: string): boolean {
  // One pass of the patterns together first: it says no to most files of a project, which every gate check lists.
  if (!ANY_TEST_FILE.test(rel)) return false;
  return !rel.split("/").some((part) => NOT_TEST_DIRS.has(part));
}

const either = (patterns: RegExp[]) => new RegExp(patterns.map((p) => `(?:${p.source})`).join("|"));
const ANY_TEST_FILE = either(TEST_FILE_PATTERNS);

/** The runner config pattern `rel` matches, or null. */
export function runnerConfigFor(rel: string): RunnerConfigPattern | null {
  const slash = rel.lastIndexOf("/");
  const base = rel.slice(slash + 1);
  if (!ANY_RUNNER_CONFIG.test(base)) return null;
  return RUNNER_CONFIGS.find((p) => p.name.test(base) && (p.anywhere || slash < 0)) ?? null;
}

const ANY_RUNNER_CONFIG = either(RUNNER_CONFIGS.map((p) => p.name));

/** The lines of an INI/TOML file under the headers `section` matches (the whole file when there is no `section`). */
export function relevantPart(content: string, section: RegExp | undefined): string {
  if (!section) return content;
  const out: string[] = [];
  let inside = false;
  for (const line of content.split(/\r?\n/)) {
    if (/^\s*\[/.test(line)) inside = section.test(line.trim());
    if (inside) out.push(line);
  }
  return out.join("\n");
}

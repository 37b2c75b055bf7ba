import { isTestFile, runnerConfigFor } from "./definition-patterns.js";

/**
 * Folders whose files serve the tests (helpers, fixtures, data, Go's testdata): what an agent puts there can
 * change how the project's tests behave, so it is on the tests' side, not the change's.
 */
const TEST_FOLDERS = new Set(["test", "tests", "__tests__", "spec", "specs", "testdata", "testing", "__mocks__", "__fixtures__"]);

/**
 * Whether `rel` (a project-relative POSIX path) belongs to the tests rather than to the code under test: a test file
 * by its runner's convention (`*.test.js`, `test_*.py`, `*_test.go`…), a runner config picked up anywhere
 * (`conftest.py`), or any file under a test folder. The baseline's tests are judged with the baseline's version of
 * every such file (src/git/clean-copy.ts), so an agent's new test module, TestMain or plugin cannot touch their verdict.
 */
export function isTestSide(rel: string): boolean {
  if (isTestFile(rel) || runnerConfigFor(rel)?.anywhere) return true;
  const parts = rel.split("/");
  const base = parts[parts.length - 1];
  // Python's test helpers and Go's test-only files are picked up by name wherever they are.
  if (/^conftest\.py$|_test\.go$|^test_.*\.py$|_test\.py$/.test(base)) return true;
  return parts.slice(0, -1).some((p) => TEST_FOLDERS.has(p));
}

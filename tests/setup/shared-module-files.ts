import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/**
 * What a test file does that another file in the same process would see: a process-wide mode or registry set through
 * yolo's own setters, spies and stubs, the environment or working folder changed, process handlers added, modules
 * imported again at run time (a file that re-runs other test files by importing them), globals. A unit file that
 * does none of these can share its worker's module graph with the next one.
 */
const PROCESS_WIDE =
  /\b(setSpawnerMode|registerSecrets|registerHooks|setUpHooks|installHardExit)\b|\bvi\.(spyOn|stub\w*|mock|doMock|useFakeTimers|resetModules)\b|process\.env(\.\w+|\[[^\]]+\])\s*(=[^=]|\?\?=|\|\|=)|delete\s+process\.env|Object\.assign\(process\.env|process\.(chdir|on|once|exitCode|umask)\b|\bawait\s+import\(|\bglobalThis\b/;

/**
 * The unit test files that can run without a fresh module graph each (vitest's `isolate: false`), relative to `root`.
 *
 * Importing yolo's modules and their dependencies again for every file was half of the unit files' time (import
 * 110 s of 296 s summed, 359 s of CPU for the unit folder; 127 s without isolation). A file is left out, and keeps
 * its own graph, as soon as its text shows anything in PROCESS_WIDE: the rule is read from the files on every run, so
 * a new file that sets a mode is isolated without anyone remembering to list it.
 */
export function sharedModuleUnitFiles(root: string): string[] {
  return testFiles(join(root, "tests/unit"))
    .filter((file) => !PROCESS_WIDE.test(readFileSync(file, "utf8")))
    .map((file) => relative(root, file));
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return /\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

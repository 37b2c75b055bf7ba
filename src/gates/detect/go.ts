import { checkGate, exists, foldersWith, testGate, type Detector } from "./files.js";

/**
 * Go: `go test -v ./...` (`-v` lists each test, so results are per test) and `go vet ./...` as an optional gate.
 * A root go.mod or go.work covers the whole tree; modules only in subfolders (no go.work) are tested one by one.
 */
export const detectGo: Detector = (root) => {
  if (exists(root, "go.mod") || exists(root, "go.work")) {
    return { ecosystem: "go", test: testGate("go test -v ./..."), checks: [checkGate("vet", "go vet ./...")] };
  }
  const modules = foldersWith(root, "go.mod", 3);
  if (modules.length === 0) return null;
  return {
    ecosystem: "go",
    test: testGate(eachModule(modules, "go test -v ./...")),
    checks: [checkGate("vet", eachModule(modules, "go vet ./..."))],
  };
};

/**
 * Runs `command` in every module folder and fails when any run failed, after running them all. Folder names are
 * the repository's (the model can create folders), so they are shell-quoted unless plainly safe.
 */
export function eachModule(modules: string[], command: string): string {
  const dirs = modules.map((d) => shellWord(d.startsWith("-") ? `./${d}` : d));
  if (dirs.length === 1) return `cd ${dirs[0]} && ${command}`;
  return `status=0; for m in ${dirs.join(" ")}; do (cd "$m" && ${command}) || status=1; done; exit $status`;
}

function shellWord(word: string): string {
  return /^[\w./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

// How the repository-size-dependent work grows with the tree: the work before a run's first model request that
// depends on the repository (the prompt's project summary and gate detection), and one list_files and one
// search_files call, on generated trees of 1k, 10k and 100k files — outside git (the .gitignore matcher) and in a
// git repository (git ls-files). Printed as ratios against the 1k tree of the same mode, measured in the same run.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { findProtectedPaths } from "../dist/exec/protected-paths.js";
import { resolveGateDefinition } from "../dist/gates/definition.js";
import { defaultGates } from "../dist/gates/detect.js";
import { withStagedWorkTree } from "../dist/git/staged-work-tree.js";
import { projectSummary } from "../dist/prompt/project-summary.js";
import { getTool } from "../dist/tools/registry.js";

const SIZES = [1_000, 10_000, 100_000];
const PER_DIR = 100;

// `n` small source files in folders of PER_DIR, two levels deep, plus an ignored build folder and a .gitignore.
function makeTree(n) {
  const root = mkdtempSync(join(tmpdir(), `yolo-bench-tree-${n}-`));
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "big", scripts: { test: "node --test" } }));
  writeFileSync(join(root, ".gitignore"), "build/\n*.log\n");
  mkdirSync(join(root, "build"));
  for (let i = 0; i < 50; i++) writeFileSync(join(root, "build", `out${i}.js`), "ignored\n");
  for (let i = 0; i < n; i++) {
    const dir = join(root, `pkg${Math.floor(i / (PER_DIR * PER_DIR))}`, `mod${Math.floor(i / PER_DIR) % PER_DIR}`);
    if (i % PER_DIR === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, i % 10 === 0 ? `file${i}.test.ts` : `file${i}.ts`), `export const value${i} = ${i};\n`);
  }
  return root;
}

async function time(fn) {
  const start = performance.now();
  const out = await fn();
  return { ms: performance.now() - start, out };
}

async function measure(root) {
  const ctx = { root, commandTimeoutS: 30, outputCapBytes: 16384, readCapBytes: 16384, env: {}, secretEnvNames: [] };
  const list = getTool("list_files");
  const search = getTool("search_files");
  const before = await time(() => {
    projectSummary(root);
    return defaultGates(root);
  });
  const listed = await time(() => list.run(list.schema.parse({}), ctx));
  const searched = await time(() => search.run(search.schema.parse({ pattern: "no-such-text-anywhere" }), ctx));
  // What every command and every gate check do again: the walk for exec and secret files (twice a command: before
  // and after), and the gate definition's record of the test files (reused while a file's stamp has not moved).
  const walked = await time(() => findProtectedPaths(root));
  const defined = await time(() => resolveGateDefinition(root, GATES));
  await new Promise((resolve) => setTimeout(resolve, 150)); // the records kept once older than a timestamp tick
  await resolveGateDefinition(root, GATES);
  const redefined = await time(() => resolveGateDefinition(root, GATES));
  return {
    before: before.ms,
    list: listed.ms,
    search: searched.ms,
    capped: /capped/.test(searched.out.content),
    walk: walked.ms,
    definition: defined.ms,
    again: redefined.ms,
  };
}

const GATES = [{ name: "test", command: "npm test", required: true, timeoutS: 600 }];

// The work tree staged into a throwaway index (a dirty tree's start snapshot, `show --diff`, a monorepo's changed files)
// with one file changed since the last commit: from a copy of the user's index (what yolo does) and from a fresh one
// read from HEAD (what it did), where git reads every file again.
async function staging(root) {
  execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "init"], { cwd: root });
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "big", changed: true }));
  const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
  const tree = (staged) => staged(["write-tree"]);
  const copied = await time(() => withStagedWorkTree(root, { base: head }, tree));
  const fresh = await time(() => withStagedWorkTree(root, { base: head, index: null }, tree));
  if (copied.out !== fresh.out) throw new Error("the two stagings wrote different trees");
  return { copied: copied.ms, fresh: fresh.ms };
}

export async function benchLargeRepo(print) {
  print("Large repositories: repository-dependent work before the first model request, and one list_files / search_files call");
  print("  (ms, and the ratio against the 1k tree of the same mode; search stops at its caps and says so)");
  const rows = { plain: [], git: [] };
  for (const n of SIZES) {
    const root = makeTree(n);
    try {
      rows.plain.push({ n, ...(await measure(root)) });
      // Tracked files, as in a real repository (git ls-files reads the index; untracked files cost a directory scan).
      execFileSync("git", ["init", "-q"], { cwd: root });
      execFileSync("git", ["add", "-A"], { cwd: root });
      rows.git.push({ n, ...(await measure(root)), ...(await staging(root)) });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  for (const [mode, list] of Object.entries(rows)) {
    const base = list[0];
    for (const r of list) {
      const ratio = (k) => `${r[k].toFixed(0)} ms (×${(r[k] / base[k]).toFixed(1)})`;
      print(
        `  ${mode.padEnd(5)} ${String(r.n).padStart(7)} files: before request ${ratio("before")}, list_files ${ratio("list")}, search_files ${ratio("search")}${r.capped ? " [capped]" : ""}`,
      );
      if (mode === "plain")
        print(
          `                      a command's protected-paths walk ${ratio("walk")} (twice a command); a gate check's definition ${ratio("definition")}, ${ratio("again")} with its test-file records reused`,
        );
      if (r.copied !== undefined)
        print(
          `                      staging the work tree: from the user's index ${r.copied.toFixed(0)} ms, from a fresh index ${r.fresh.toFixed(0)} ms (${(r.copied / r.fresh).toFixed(2)}×)`,
        );
    }
  }
}

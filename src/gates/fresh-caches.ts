import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Sandbox } from "../exec/sandbox.js";

/** Where the sandbox shows a gate run's fresh cache folder: under its private /tmp, like the toolchain caches. */
export const FRESH_INSIDE = "/tmp/yolo-gate-fresh";

// pytest's options that read or write its cache on purpose: with them the cache moves to the fresh folder instead of
// being switched off (they would be unknown options without the cache plugin).
const PYTEST_CACHE_FLAGS = /(?:^|\s)--(?:lf|last-failed|ff|failed-first|nf|new-first|sw|stepwise|sw-skip|stepwise-skip|cache-clear|cache-show)\b/;

/** A gate run's environment for caches it must never read a result from, and the folder behind it. */
export interface FreshCaches {
  env: Record<string, string>;
  /** The sandbox with the fresh folder bound writable (unchanged without bubblewrap). */
  sandbox: Sandbox | undefined;
  remove(): void;
}

/**
 * Caches a gate never takes a result from: anything the agents could have written — the project's `__pycache__`,
 * `.pytest_cache`, a test result cached by `go test` (the model's own commands share that cache) — could hand the
 * gate the result of code that is not there. Each gate run gets an empty folder outside the project for Python's
 * bytecode (PYTHONPYCACHEPREFIX: Python then neither reads nor writes `__pycache__` in the tree) and pytest's cache
 * (off, or there when the command asks for `--lf`-like options), and Go's test results are not cached (`-count=1` in
 * GOFLAGS, which `go build` and `go vet` ignore). Go's build cache stays shared (a fresh one would rebuild every
 * dependency each run): it is keyed by the sources' content, and a forged entry in it is not guarded against here.
 */
export function openFreshCaches(command: string, env: NodeJS.ProcessEnv, sandbox: Sandbox | undefined): FreshCaches {
  const dir = mkdtempSync(path.join(os.tmpdir(), "yolo-gate-fresh-"));
  const bwrap = sandbox?.kind === "bwrap";
  const inside = bwrap ? FRESH_INSIDE : dir;
  const pytestCache = PYTEST_CACHE_FLAGS.test(command) ? `-o cache_dir=${path.join(inside, "pytest")}` : "-p no:cacheprovider";
  return {
    env: {
      PYTHONPYCACHEPREFIX: path.join(inside, "pycache"),
      PYTEST_ADDOPTS: [env.PYTEST_ADDOPTS, pytestCache].filter(Boolean).join(" "),
      GOFLAGS: [env.GOFLAGS, "-count=1"].filter(Boolean).join(" "),
    },
    sandbox: bwrap ? { ...sandbox, writable: [...(sandbox.writable ?? []), { host: dir, inside: FRESH_INSIDE }] } : sandbox,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

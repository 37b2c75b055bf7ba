import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";
import LongFilesFirst from "./tests/setup/long-files-first.js";
import { pathPastPyenvShims } from "./tests/setup/pyenv-path.js";
import { sharedModuleUnitFiles } from "./tests/setup/shared-module-files.js";

const ALL = ["tests/**/*.test.ts", "tests/**/*.test.tsx"];
// The eval e2e files each start dozens of sandboxed yolo runs and test suites, several at once (--parallel): beside
// the rest of the suite they slowed to six times their time alone on two cores.
const EVAL_E2E = ["tests/e2e/eval-*.test.ts"];
// Unit files that change nothing process-wide (tests/setup/shared-module-files.ts) share their worker's module graph.
const SHARED_UNIT = sharedModuleUnitFiles(fileURLToPath(new URL(".", import.meta.url)));

export default defineConfig({
  test: {
    // Budgets that catch a hang without failing a slow machine: a test's time follows the load (one with a few
    // scripted runs took three times as long at load 13 as alone), and a bigger budget costs time only on a hang.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // Two cores, two files at once: an e2e file keeps about one core busy with its real child processes (the built
    // yolo, gates, git). A third file at once was no faster (2,667 s for npm test against 2,325 s with two, on a
    // machine that was not otherwise quiet): new processes' memory is what costs here, and more at once only contend.
    maxWorkers: 2,
    env: { FORCE_COLOR: "0", NO_COLOR: "1", ...pathPastPyenvShims(process.env) },
    setupFiles: ["tests/setup/ink-outside-ci.ts"],
    // The longest files start first, so the run does not end on one worker alone with a long file.
    sequence: { sequencer: LongFilesFirst },
    projects: [
      { extends: true, test: { name: "suite", include: ALL, exclude: [...configDefaults.exclude, ...EVAL_E2E, ...SHARED_UNIT] } },
      // Loading yolo's modules again for each of these files cost more than their tests: 222 s against 100 s wall for
      // the unit folder alone, 359 s against 127 s of CPU.
      { extends: true, test: { name: "unit", include: SHARED_UNIT, isolate: false } },
      // Run after the rest, two files at a time: one alone, with its own --parallel 2, kept 1.3 cores busy on average
      // (task building and judging are serial), so a second file has room beside it; beside the rest of the suite
      // they slowed far more.
      { extends: true, test: { name: "eval-e2e", include: EVAL_E2E, maxWorkers: 2, sequence: { groupOrder: 1 } } },
    ],
  },
});

import { configDefaults, defineConfig } from "vitest/config";
import LongFilesFirst from "./tests/setup/long-files-first.js";
import { pathPastPyenvShims } from "./tests/setup/pyenv-path.js";

const ALL = ["tests/**/*.test.ts", "tests/**/*.test.tsx"];
// The eval e2e files each start dozens of sandboxed yolo runs and test suites, several at once (--parallel): beside
// another file, or each other, they slowed to six times their time alone on two cores.
const EVAL_E2E = ["tests/e2e/eval-*.test.ts"];

export default defineConfig({
  test: {
    // Budgets that catch a hang without failing a slow machine: a test's time follows the load (one with a few
    // scripted runs took three times as long at load 13 as alone), and a bigger budget costs time only on a hang.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // Two cores: e2e files spawn real processes and test runners; keep parallelism modest.
    maxWorkers: 2,
    env: { FORCE_COLOR: "0", NO_COLOR: "1", ...pathPastPyenvShims(process.env) },
    setupFiles: ["tests/setup/ink-outside-ci.ts"],
    // The longest files start first, so the run does not end on one worker alone with a long file.
    sequence: { sequencer: LongFilesFirst },
    projects: [
      { extends: true, test: { name: "suite", include: ALL, exclude: [...configDefaults.exclude, ...EVAL_E2E] } },
      // Run after the rest, one file at a time: their own --parallel has both cores to itself.
      { extends: true, test: { name: "eval-e2e", include: EVAL_E2E, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});

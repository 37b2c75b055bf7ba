import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts", "tests/**/*.test.tsx"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: e2e files spawn real processes and test runners; keep parallelism modest.
    maxWorkers: 2,
    env: { FORCE_COLOR: "0", NO_COLOR: "1" },
    setupFiles: ["tests/setup/ink-outside-ci.ts"],
  },
});

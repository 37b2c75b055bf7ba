import { BaseSequencer, type TestSpecification } from "vitest/node";

// The files that take longest (figures from full runs on two cores), started first within their project. Without
// vitest's timing cache (a fresh clone: CI) files run largest first, and a long file with a short source started
// last left one worker alone with it for minutes at the end of the run. Order within the list: longest first. A file
// missing here only starts later; a renamed one is simply not matched.
const LONG_FILES = [
  "tests/e2e/startup-is-lazy.test.ts",
  "tests/reliability/gate-integrity.test.ts",
  "tests/reliability/sandbox-escapes.test.ts",
  "tests/reliability/kill-and-resume.test.ts",
  "tests/integration/gates/pytest-runner-matrix.test.ts",
  "tests/e2e/baseline-failures-are-targets.test.ts",
  "tests/e2e/acp-editor-session.test.ts",
  "tests/reliability/gate-tree-integrity.test.ts",
  "tests/e2e/run-bundle.test.ts",
  "tests/e2e/hooks.test.ts",
  "tests/e2e/light-cli.test.ts",
  "tests/integration/gates/lint-findings-real-tools.test.ts",
  "tests/e2e/resume-after-kill.test.ts",
  "tests/reliability/bad-model-responses.test.ts",
  "tests/e2e/baseline-overlap.test.ts",
  "tests/integration/gates/gate-caches-never-trusted.test.ts",
  "tests/e2e/workflow-cli.test.ts",
  "tests/e2e/stories-kill-resume.test.ts",
  "tests/e2e/checkpoint-reader-matches-langgraph.test.ts",
  "tests/e2e/stories-parallel.test.ts",
  "tests/e2e/monorepo-gate-scope.test.ts",
];

export default class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const i = LONG_FILES.findIndex((f) => spec.moduleId.endsWith(`/${f}`));
      return i < 0 ? LONG_FILES.length : i;
    };
    // Stable: vitest's own order (groups, projects, its cache) is kept among files of the same rank.
    return sorted
      .map((spec, i) => ({ spec, i }))
      .sort((a, b) => {
        const groups = a.spec.project.config.sequence.groupOrder - b.spec.project.config.sequence.groupOrder;
        if (groups !== 0 || a.spec.project.name !== b.spec.project.name) return a.i - b.i;
        return rank(a.spec) - rank(b.spec) || a.i - b.i;
      })
      .map(({ spec }) => spec);
  }
}

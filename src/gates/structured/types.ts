import type { FileOutcome, TestCase } from "../parsers/types.js";

/** What a runner's machine-readable report says: every test, and the files it summed up (a file that did not load). */
export interface StructuredReading {
  tests: TestCase[];
  files?: FileOutcome[];
}

/**
 * One test runner yolo asks for a machine-readable report *beside* its normal output, when it recognizes the gate's
 * command as that runner's (the user still sees the runner's usual output; yolo reads the report).
 *
 * - `command(command, scripts, reportPath)`: the command to run so that the runner also writes its report to
 *   `reportPath` (a path as the command sees it: inside the sandbox), or null when the command is not one this runner
 *   recognizes (a wrapper script, `tsc && vitest run`, a report already configured). `scripts` are package.json's
 *   scripts, to look through `npm test`. Returning the command unchanged is fine when `env` does the asking.
 * - `env(env, reportPath)`: variables to add for the same purpose (node's `NODE_OPTIONS`), optional.
 * - `read(text, root)`: the report's text (read by yolo, bounded) to tests with project-relative ids spelled as the
 *   printed-output readers spell them (`file > suite > test`), so a structured run and a parsed one compare; null
 *   when the text is not this runner's report.
 */
export interface StructuredRunner {
  runner: string;
  command(command: string, scripts: Record<string, string>, reportPath: string): string | null;
  env?(env: NodeJS.ProcessEnv, reportPath: string): Record<string, string>;
  read(text: string, root: string): StructuredReading | null;
}

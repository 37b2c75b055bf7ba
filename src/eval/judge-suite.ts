import { join } from "node:path";
import type { TestStatus } from "../gates/parsers/types.js";
import type { JudgeScope } from "./judge-scope.js";
import { runSuite, type SuiteRun, type SuiteSettings } from "./suite.js";
import type { EvalTask } from "./types.js";

/** How the judge ran: the narrowed test files, or the whole suite and why (kept in the task's result). */
export type JudgeRun = { narrowed: string[] } | { whole: string };

/**
 * The suite's results on the judged tree for `task`'s targets and guards. Narrowed (judge-scope.ts), only the files
 * the hidden tests can change run, and the run's gates stand for the rest; the narrowed run must then report every
 * target and pass every test it lists, and each guard it does not list must be one the run's gates vouch for.
 * Otherwise (a failure, a test the narrowing cannot place) the whole suite runs, as it would have without narrowing:
 * the verdict is the whole suite's either way.
 */
export async function judgedSuite(task: EvalTask, dir: string, scope: JudgeScope, suite: SuiteSettings): Promise<{ run: SuiteRun; how: JudgeRun }> {
  const logs = join(dir, ".yolo", "eval-judge");
  if (!scope.narrowed) return { run: await runSuite(dir, task.gates, logs, suite), how: { whole: scope.reason } };
  const narrowed = await runSuite(dir, scope.gates, join(logs, "narrowed"), suite);
  const why = narrowed.ok ? unplaced(task, narrowed.tests, scope.reused) : `the narrowed run gave no per-test results: ${narrowed.reason}`;
  if (why) return { run: await runSuite(dir, task.gates, logs, suite), how: { whole: why } };
  const tests = new Map((narrowed as Extract<SuiteRun, { ok: true }>).tests);
  for (const id of task.guards) if (!tests.has(id)) tests.set(id, "passed");
  return { run: { ok: true, tests }, how: { narrowed: scope.files } };
}

// Why the narrowed run's results and the run's gates do not settle every target and guard, or null when they do.
function unplaced(task: EvalTask, tests: Map<string, TestStatus>, reused: Set<string>): string | null {
  const failing = [...tests].find(([, status]) => status !== "passed");
  if (failing) return `${failing[0]} does not pass in the narrowed run`;
  const target = task.targets.find((id) => !tests.has(id));
  if (target) return `the narrowed run does not list the target ${target}`;
  const guard = task.guards.find((id) => !tests.has(id) && !reused.has(id));
  return guard ? `neither the narrowed run nor the run's gates show the guard ${guard}` : null;
}

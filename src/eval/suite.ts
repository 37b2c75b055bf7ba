import type { GateConfig } from "../config/schema.js";
import type { ExecSettings } from "../exec/settings.js";
import type { TestStatus } from "../gates/parsers/types.js";
import { type GateRun, runGatesWithTests } from "../gates/run-gates.js";

/** What the eval needs to run a project's gates in a worktree: the environment, the sandbox, where logs go. */
export interface SuiteSettings {
  env: NodeJS.ProcessEnv;
  secretEnvNames: string[];
  commands: ExecSettings;
  capBytes: number;
  signal?: AbortSignal;
}

/** Every test the required gates reported, by `<gate>: <test id>`; or why the suite gave no per-test results. */
export type SuiteRun = { ok: true; tests: Map<string, TestStatus> } | { ok: false; reason: string };

/**
 * Runs the required gates in `dir` and collects their per-test results. A gate that lists no tests (counts only, or
 * a crash before any test ran) makes the suite unusable for an eval: targets and guards are single tests.
 */
export async function runSuite(dir: string, gates: GateConfig[], logDir: string, settings: SuiteSettings): Promise<SuiteRun> {
  const required = gates.filter((g) => g.required);
  if (!required.length) return { ok: false, reason: "the project has no required gate (no test script detected, none configured)" };
  const runs = await runGatesWithTests(required, gateOptions(dir, logDir, settings));
  const tests = new Map<string, TestStatus>();
  for (const run of runs) {
    if (run.result.timedOut) return { ok: false, reason: `gate ${run.result.name} timed out after ${run.result.durationMs} ms` };
    if (!run.tests?.length) {
      return {
        ok: false,
        reason: `gate ${run.result.name} (${run.result.command}) listed no tests (exit code ${run.result.exitCode})${countsOnly(run)}; see ${run.result.logFile ?? "its output"}`,
      };
    }
    for (const t of run.tests) tests.set(`${run.result.name}: ${t.id}`, t.status);
  }
  return { ok: true, tests };
}

// A gate whose output counted tests without naming one (a runner behind a wrapper script, printing a summary per
// file): what to configure instead. Empty when it counted nothing either (a crash before any test ran).
function countsOnly(run: GateRun): string {
  const { passedCount, failedCount } = run.result;
  if (passedCount === null && failedCount === null) return "";
  return `: its output counts ${passedCount ?? 0} passed, ${failedCount ?? 0} failed but names no test; configure a gate that runs the test runner alone (\`vitest run\`, \`jest\`, \`node --test <paths>\`, \`pytest\`), whose results yolo reads test by test`;
}

/** One gate run as the suite's are (its log `attempt-1-<gate><suffix>.log` in `logDir`), or null when aborted. */
export async function runOneGate(dir: string, gate: GateConfig, logDir: string, settings: SuiteSettings, logSuffix = ""): Promise<GateRun | null> {
  return (await runGatesWithTests([gate], { ...gateOptions(dir, logDir, settings), logSuffix }))[0] ?? null;
}

function gateOptions(dir: string, logDir: string, settings: SuiteSettings) {
  return {
    root: dir,
    env: settings.env,
    secretEnvNames: settings.secretEnvNames,
    capBytes: settings.capBytes,
    attempt: 1,
    logDir,
    commands: settings.commands,
    signal: settings.signal,
  };
}

/** Tests not passing before and passing after (targets), and passing in both (guards), each sorted. */
export function targetsAndGuards(before: Map<string, TestStatus>, after: Map<string, TestStatus>): { targets: string[]; guards: string[] } {
  const targets: string[] = [];
  const guards: string[] = [];
  for (const [id, status] of after) {
    if (status !== "passed") continue;
    if (before.get(id) === "passed") guards.push(id);
    else targets.push(id);
  }
  return { targets: targets.sort(), guards: guards.sort() };
}

import type { GateResult, Usage } from "../events/schema.js";
import { HookStopError } from "./hook-error.js";
import type { HookRunner, HookScope } from "./hooks.js";

/** Who a NodeStart / NodeEnd payload is about. */
export interface NodeSubject {
  node: string;
  agent: string;
  role: string;
  mode: string;
}

/**
 * NodeStart hooks, before an agent node's model work: exit 2, `decision: "block"`, `continue: false` or a
 * fail-closed failure stops the run before the node (resumable).
 */
export async function nodeStartHooks(
  hooks: HookRunner | undefined,
  subject: NodeSubject,
  extra: { fixAttempt: number; step: number },
  scope: HookScope,
): Promise<void> {
  if (!hooks) return;
  const outcome = await hooks.run("NodeStart", subject.node, { ...subject, fix_attempt: extra.fixAttempt, step: extra.step }, scope);
  stopIf(outcome, `before ${subject.node}`);
}

/** NodeEnd hooks, when an agent node has its result and before it is saved: a fail-closed failure or `continue: false` stops the run (the node runs again on resume). */
export async function nodeEndHooks(
  hooks: HookRunner | undefined,
  subject: NodeSubject,
  result: { outcome: "handoff" | "escalated"; summary: string; filesChanged: string[]; usage: Usage },
  scope: HookScope,
): Promise<void> {
  if (!hooks) return;
  const fields = { ...subject, outcome: result.outcome, summary: result.summary, files_changed: result.filesChanged, usage: snakeUsage(result.usage) };
  stopIf(await hooks.run("NodeEnd", subject.node, fields, scope), `after ${subject.node}`);
}

/** GateEnd hooks, once a node has run its gate commands: the results (output tail included, secrets scrubbed). */
export async function gateEndHooks(
  hooks: HookRunner | undefined,
  node: string,
  attempt: number,
  gates: readonly GateResult[],
  scope: HookScope,
): Promise<void> {
  if (!hooks) return;
  const fields = {
    node,
    attempt,
    passed: gates.every((g) => g.passed || !g.required),
    gates: gates.map((g) => ({
      name: g.name,
      command: g.command,
      required: g.required,
      passed: g.passed,
      exit_code: g.exitCode,
      timed_out: g.timedOut,
      duration_ms: g.durationMs,
      passed_count: g.passedCount,
      failed_count: g.failedCount,
      failures: g.failures,
      output_tail: g.tail,
      log_file: g.logFile,
    })),
  };
  stopIf(await hooks.run("GateEnd", node, fields, scope), `after the gates of ${node}`);
}

/** RunEnd hooks, when the run's outcome is known and before it is reported: they can no longer change it. */
export async function runEndHooks(
  hooks: HookRunner | undefined,
  result: { status: string; exitCode: number; reason: string; mode: string; filesChanged: string[]; usage: Usage; resumeCommand: string | null },
  scope: HookScope,
): Promise<void> {
  if (!hooks) return;
  await hooks.run(
    "RunEnd",
    result.status,
    {
      status: result.status,
      exit_code: result.exitCode,
      reason: result.reason,
      mode: result.mode,
      files_changed: result.filesChanged,
      usage: snakeUsage(result.usage),
      resume_command: result.resumeCommand,
    },
    scope,
  );
}

function stopIf(outcome: { blocked: string[]; stop: string | null }, where: string): void {
  const why = outcome.stop ?? outcome.blocked[0];
  if (why !== undefined && why !== null) throw new HookStopError(`a hook stopped the run ${where}: ${why}`);
}

function snakeUsage(u: Usage): Record<string, number> {
  return { prompt_tokens: u.promptTokens, completion_tokens: u.completionTokens, total_tokens: u.totalTokens, calls: u.calls };
}

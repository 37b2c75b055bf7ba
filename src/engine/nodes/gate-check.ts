import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { join } from "node:path";
import type { GateResult } from "../../events/schema.js";
import { runGates } from "../../gates/run-gates.js";
import { threadArtifactsDir } from "../../store/state-dir.js";
import { scrubEnv } from "../../tools/env.js";
import type { EngineDeps } from "../deps.js";
import type { PipelineStateType, PipelineUpdate } from "../state.js";
import { emitter, hookScope, threadIdOf } from "./context.js";
import { gateEndHooks } from "../../hooks/step-hooks.js";

/** Runs the selected gates (all configured or detected ones when `names` is true/absent) and reports each. */
export async function runGateCheck(
  node: string,
  names: string[] | true | undefined,
  state: PipelineStateType,
  config: LangGraphRunnableConfig,
  deps: EngineDeps,
): Promise<GateResult[]> {
  const emit = emitter(config);
  const selected = Array.isArray(names) ? deps.gates.filter((g) => names.includes(g.name)) : deps.gates;
  if (selected.length === 0) {
    emit({ type: "warning", message: "No gate commands: package.json has no test script and yolo.config.ts sets no gates. Only the agents' verdicts decide." });
  }
  const attempt = state.fixAttempts + 1;
  const gates = await runGates(selected, {
    root: deps.config.root,
    env: scrubEnv(deps.baseEnv, deps.secretEnvNames),
    capBytes: deps.config.limits.outputCapBytes,
    attempt,
    logDir: join(threadArtifactsDir(deps.config.stateDir, threadIdOf(config)), "gates"),
    signal: config.signal,
    commands: deps.commands,
    onStart: (gate) => emit({ type: "gate.started", node, name: gate.name, command: gate.command, attempt }),
  });
  for (const gate of gates) emit({ type: "gate.result", node, gate });
  await gateEndHooks(deps.hooks, node, attempt, gates, hookScope(config, deps, node));
  return gates;
}

/**
 * The state after a gate decision. `blocked` (a required gate failed, or a judge said FAIL) counts one fix
 * attempt: edges conditioned on `fix_attempts_remain` stop looping after `maxFixAttempts` of them.
 */
export function gateDecision(state: PipelineStateType, gates: GateResult[], blocked: boolean): PipelineUpdate {
  return {
    lastGates: gates,
    gateHistory: gates.map(({ tail: _tail, ...summary }) => summary),
    gateBlocked: blocked,
    fixAttempts: blocked ? state.fixAttempts + 1 : state.fixAttempts,
  };
}

export function redGate(gates: GateResult[]): boolean {
  return gates.some((g) => g.required && !g.passed);
}

import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { join } from "node:path";
import { runGates } from "../../gates/run-gates.js";
import { threadDir } from "../../store/state-dir.js";
import { scrubEnv } from "../../tools/env.js";
import type { EngineDeps } from "../deps.js";
import type { PipelineStateType, PipelineUpdate, Verdict } from "../state.js";
import { emitter, escalationUpdate, runRole, threadIdOf } from "./agent-node.js";
import { finish } from "./role-nodes.js";

/**
 * tea: yolo runs the gate commands itself, then the tea agent judges with those results in front of it.
 * `gateBlocked` is true when a required gate failed OR the verdict is FAIL: the model cannot talk its way
 * past a red test. Each block counts as one fix attempt.
 */
export function teaNode(deps: EngineDeps) {
  return async (state: PipelineStateType, config: LangGraphRunnableConfig): Promise<PipelineUpdate> => {
    const emit = emitter(config);
    emit({ type: "node.started", node: "tea", fixAttempt: 0 });
    const { config: cfg } = deps;
    const attempt = state.fixAttempts + 1;
    if (deps.gates.length === 0) emit({ type: "warning", message: "No gate commands: package.json has no test script and yolo.config.ts sets no gates. Only the tea agent's verdict decides." });
    const gates = await runGates(deps.gates, {
      root: cfg.root,
      env: scrubEnv(deps.baseEnv, deps.secretEnvNames),
      capBytes: cfg.limits.outputCapBytes,
      attempt,
      logDir: join(threadDir(cfg.root, threadIdOf(config)), "gates"),
      signal: config.signal,
    });
    for (const gate of gates) emit({ type: "gate.result", node: "tea", gate });

    const out = await runRole("tea", { ...state, lastGates: gates }, config, deps);
    const escalation = escalationUpdate("tea", out.handoff);
    if (escalation) return finish("tea", config, { ...escalation, lastGates: gates }, out.usage, "");

    const verdict = out.handoff.verdict as Verdict;
    const redGate = gates.some((g) => g.required && !g.passed);
    const blocked = redGate || verdict === "FAIL";
    const update: PipelineUpdate = {
      escalateToHuman: false,
      question: null,
      verdict,
      findings: (out.handoff.findings as string[]) ?? [],
      lastGates: gates,
      gateHistory: gates.map(({ tail: _tail, ...summary }) => summary),
      gateBlocked: blocked,
      fixAttempts: blocked ? state.fixAttempts + 1 : state.fixAttempts,
    };
    const gateText = gates.length ? `gates ${gates.filter((g) => g.passed).length}/${gates.length} passed` : "no gates";
    return finish("tea", config, update, out.usage, `verdict ${verdict}, ${gateText}${blocked ? " — blocked" : ""}`);
  };
}

import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { gateVerdict } from "../../gates/verdict.js";
import type { GateNodeSpec } from "../../workflow/schema.js";
import type { EngineDeps } from "../deps.js";
import type { PipelineStateType, PipelineUpdate } from "../../state/pipeline.js";
import { checkVisits, emitter, finish } from "./context.js";
import { runGateCheck } from "./gate-check.js";

/** A gate node: yolo runs the commands; a failed required gate sets gate_blocked. No model involved. */
export function gateNode(node: string, spec: GateNodeSpec, deps: EngineDeps) {
  return async (state: PipelineStateType, config: LangGraphRunnableConfig): Promise<PipelineUpdate> => {
    checkVisits(node, state, spec.maxVisits);
    emitter(config)({ type: "node.started", node, fixAttempt: 0, step: state.steps ?? 0 });
    const check = await runGateCheck(node, spec.gates, state, config, deps);
    const verdict = gateVerdict({ node, check, before: state });
    const passed = check.results.filter((g) => g.passed).length;
    const summary = `gates ${passed}/${check.results.length} passed${verdict.gateBlocked ? " — blocked" : ""}`;
    return finish(node, config, verdict, null, summary);
  };
}

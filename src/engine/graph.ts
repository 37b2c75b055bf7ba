import { END, START, StateGraph, type BaseCheckpointSaver } from "@langchain/langgraph";
import type { EngineDeps } from "./deps.js";
import { escalateNode } from "./nodes/escalate-node.js";
import { analystNode, architectNode, devNode, pmNode } from "./nodes/role-nodes.js";
import { teaNode } from "./nodes/tea-node.js";
import {
  routeAfterAnalyst,
  routeAfterArchitect,
  routeAfterDev,
  routeAfterEscalate,
  routeAfterPm,
  routeAfterTea,
  type Route,
} from "./routers.js";
import { PipelineState, type PipelineStateType } from "./state.js";

/** The pipeline's agent nodes in display order. */
export const PIPELINE_NODES = ["analyst", "pm", "architect", "dev", "tea"] as const;

/** Each node's router, shared by the compiled graph and the `route` events, so both always agree. */
export function pipelineRouters(maxFixAttempts: number): Record<string, (state: PipelineStateType) => Route> {
  return {
    analyst: routeAfterAnalyst,
    pm: routeAfterPm,
    architect: routeAfterArchitect,
    dev: routeAfterDev,
    tea: (state) => routeAfterTea(state, maxFixAttempts),
    escalate: routeAfterEscalate,
  };
}

/** Builds and compiles the five-agent pipeline with a human `escalate` node. */
export function buildPipeline(deps: EngineDeps, checkpointer?: BaseCheckpointSaver) {
  const routers = pipelineRouters(deps.config.maxFixAttempts);
  const to = (node: string) => (state: PipelineStateType) => routers[node](state).to;
  return new StateGraph(PipelineState)
    .addNode("analyst", analystNode(deps))
    .addNode("pm", pmNode(deps))
    .addNode("architect", architectNode(deps))
    .addNode("dev", devNode(deps))
    .addNode("tea", teaNode(deps))
    .addNode("escalate", escalateNode)
    .addEdge(START, "analyst")
    .addConditionalEdges("analyst", to("analyst"), ["escalate", "pm"])
    .addConditionalEdges("pm", to("pm"), ["escalate", "architect", "dev"])
    .addConditionalEdges("architect", to("architect"), ["escalate", "dev"])
    .addConditionalEdges("dev", to("dev"), ["escalate", "tea"])
    .addConditionalEdges("tea", to("tea"), ["escalate", "dev", END])
    .addConditionalEdges("escalate", to("escalate"), [...PIPELINE_NODES])
    .compile({ checkpointer });
}

export type PipelineGraph = ReturnType<typeof buildPipeline>;

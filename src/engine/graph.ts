import { END, START, StateGraph, type BaseCheckpointSaver } from "@langchain/langgraph";
import { END_NODE, START_NODE, type Workflow } from "../workflow/schema.js";
import type { EngineDeps } from "./deps.js";
import { agentNode } from "./nodes/agent-node.js";
import { escalateNode } from "./nodes/escalate-node.js";
import { BASELINE_NODE, gateBaselineNode } from "./nodes/gate-baseline.js";
import { gateNode } from "./nodes/gate-node.js";
import { humanNode } from "./nodes/human-node.js";
import { withRunLimits } from "./nodes/run-limits.js";
import { switchNode } from "./nodes/switch-node.js";
import { routeFrom, type Route } from "./routing.js";
import { PipelineState, type PipelineStateType } from "./state.js";

/** Each node's router, shared by the compiled graph and the `route` events, so both always agree. */
export function workflowRouters(workflow: Workflow, maxFixAttempts: number): Record<string, (state: PipelineStateType) => Route> {
  const ids = [...Object.keys(workflow.nodes), "escalate"];
  return Object.fromEntries(ids.map((id) => [id, (state: PipelineStateType) => routeFrom(id, workflow, state, maxFixAttempts)]));
}

/** Every node a router of `id` may return: its edges' targets, plus escalate, the reviewed node, and end. */
function targetsOf(id: string, workflow: Workflow): string[] {
  const spec = workflow.nodes[id];
  const targets = new Set(workflow.edges.filter((e) => e.from === id).map((e) => e.to));
  if (spec?.kind === "agent") targets.add("escalate");
  if (spec?.kind === "human" && spec.reviews) targets.add(spec.reviews);
  targets.add(END_NODE);
  return [...targets];
}

const graphName = (id: string) => (id === END_NODE ? END : id);

/**
 * Compiles a workflow (the default pipeline or a yolo.config.ts one, already validated) into a LangGraph
 * StateGraph: one node per workflow node plus the built-in `escalate` node, and one conditional edge per node
 * whose router is `routeFrom`. Every node is wrapped with the thread's step and time limits.
 */
export function buildWorkflowGraph(deps: EngineDeps, checkpointer?: BaseCheckpointSaver) {
  const { workflow, maxFixAttempts } = deps.config;
  const graph = new StateGraph(PipelineState) as unknown as StateGraph<typeof PipelineState.spec, PipelineStateType, Partial<PipelineStateType>, string>;
  for (const [id, spec] of Object.entries(workflow.nodes)) {
    const fn =
      spec.kind === "agent"
        ? agentNode(id, spec, deps)
        : spec.kind === "gate"
          ? gateNode(id, spec, deps)
          : spec.kind === "switch"
            ? switchNode(id, spec, workflow, deps)
            : humanNode(id, spec, workflow, deps.agents);
    graph.addNode(id, withRunLimits(id, fn as never, deps.config.limits) as never);
  }
  graph.addNode("escalate", withRunLimits("escalate", escalateNode, deps.config.limits) as never);
  const first = workflow.edges.find((e) => e.from === START_NODE)!.to;
  // The gate baseline runs before the first node (a no-op for agent and chat threads); it is not a workflow step.
  graph.addNode(BASELINE_NODE, gateBaselineNode(deps) as never);
  graph.addEdge(START, BASELINE_NODE as never);
  graph.addEdge(BASELINE_NODE as never, graphName(first) as never);
  const routers = workflowRouters(workflow, maxFixAttempts);
  for (const id of Object.keys(workflow.nodes)) {
    graph.addConditionalEdges(id as never, ((state: PipelineStateType) => graphName(routers[id](state).to)) as never, targetsOf(id, workflow).map(graphName) as never);
  }
  const agents = Object.entries(workflow.nodes).filter(([, s]) => s.kind === "agent").map(([id]) => id);
  graph.addConditionalEdges("escalate" as never, ((state: PipelineStateType) => routers.escalate(state).to) as never, agents as never);
  return graph.compile({ checkpointer });
}

export type WorkflowGraph = ReturnType<typeof buildWorkflowGraph>;

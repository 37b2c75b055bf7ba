import { END, START, StateGraph, type BaseCheckpointSaver } from "@langchain/langgraph";
import { END_NODE, START_NODE, type Workflow } from "../workflow/schema.js";
import { runsGates } from "../workflow/gate-nodes.js";
import { nodeRoles, storyRole } from "../workflow/node-roles.js";
import type { EngineDeps } from "./deps.js";
import { agentNode } from "./nodes/agent-node.js";
import { escalateNode } from "./nodes/escalate-node.js";
import { BASELINE_NODE } from "./nodes/gate-baseline.js";
import { gateBaselineNode, withBaseline } from "./nodes/baseline-task.js";
import { gateNode } from "./nodes/gate-node.js";
import { humanNode } from "./nodes/human-node.js";
import { withRunLimits } from "./nodes/run-limits.js";
import { switchNode } from "./nodes/switch-node.js";
import { reportingEnd, sayingRoute } from "./graph-writes.js";
import { routeFrom, type Route } from "./routing.js";
import { PipelineState, type PipelineStateType } from "../state/pipeline.js";
import { runOrDispatch, storySends } from "./stories/dispatch.js";
import { type FanOut, fanOutOf } from "./stories/fan-out.js";
import { MERGE_NODE, storyMergeNode } from "./stories/merge-node.js";
import { STORY_NODE, storyRunNode } from "./stories/story-node.js";

/** The node that builds pm's stories in parallel in this graph, if any (fan-out.ts: its role's capability). */
export function storyFanOut(deps: Pick<EngineDeps, "config" | "agents">): FanOut | null {
  return fanOutOf(deps.config, deps.agents);
}

/** Each node's router: the compiled graph's conditional edges, which say each decision as a `route` event (graph-writes.ts). */
export function workflowRouters(workflow: Workflow, maxFixAttempts: number, fanOut: FanOut | null): Record<string, (state: PipelineStateType) => Route> {
  const ids = [...Object.keys(workflow.nodes), "escalate"];
  const routers: Record<string, (state: PipelineStateType) => Route> = Object.fromEntries(
    ids.map((id) => [id, (state: PipelineStateType) => routeFrom(id, workflow, state, maxFixAttempts)]),
  );
  // Stories in parallel: the fanning-out node and the merge step send the running stories.
  if (fanOut) {
    const afterFanOut = routers[fanOut.node];
    const stories = (state: PipelineStateType): Route => {
      const sends = storySends(state);
      return sends ? { to: STORY_NODE, reason: `${sends.length} ${sends.length === 1 ? "story" : "stories"} running` } : afterFanOut(state);
    };
    routers[fanOut.node] = stories;
    routers[MERGE_NODE] = stories;
  }
  return routers;
}

/** Every node a router of `id` may return: its edges' targets, plus escalate, the reviewed node, and end. */
function targetsOf(id: string, workflow: Workflow): string[] {
  const spec = workflow.nodes[id];
  const targets = new Set(workflow.edges.filter((e) => e.from === id).map((e) => e.to));
  if (spec?.kind === "agent") {
    targets.add("escalate");
    // Back to a gate when the agent changed files after it passed (routing.ts).
    for (const [gateId, gate] of Object.entries(workflow.nodes)) if (runsGates(gate)) targets.add(gateId);
  }
  if (spec?.kind === "human" && spec.reviews) targets.add(spec.reviews);
  targets.add(END_NODE);
  return [...targets];
}

const graphName = (id: string) => (id === END_NODE ? END : id);

/**
 * Compiles a workflow (the default pipeline or a yolo.config.ts one, already validated) into a LangGraph
 * StateGraph: one node per workflow node plus the built-in `escalate` node, and one conditional edge per node
 * whose router is `routeFrom` and says its decision. Every node is wrapped with the thread's step and time limits and
 * writes its end (graph-writes.ts). Each agent node's role record is resolved here, once, and handed to its node.
 */
export function buildWorkflowGraph(deps: EngineDeps, checkpointer?: BaseCheckpointSaver) {
  const { workflow, maxFixAttempts } = deps.config;
  const graph = new StateGraph(PipelineState) as unknown as StateGraph<typeof PipelineState.spec, PipelineStateType, Partial<PipelineStateType>, string>;
  const fanOut = storyFanOut(deps);
  const roles = nodeRoles(workflow, deps.agents);
  const roleAt = (node: string) => roles.get(node)!;
  for (const [id, spec] of Object.entries(workflow.nodes)) {
    const fn =
      spec.kind === "agent"
        ? id === fanOut?.node
          ? runOrDispatch(agentNode(id, spec, roleAt(id), deps), deps, fanOut)
          : agentNode(id, spec, roleAt(id), deps)
        : spec.kind === "gate"
          ? gateNode(id, spec, deps)
          : spec.kind === "switch"
            ? switchNode(id, spec, workflow, deps)
            : humanNode(id, spec, spec.reviews ? (roles.get(spec.reviews) ?? null) : null);
    // Inside the limits: a wait for the baseline counts as the waiting step's active time, as the baseline step did.
    graph.addNode(id, reportingEnd(id, withRunLimits(id, withBaseline(id, deps, fn as never) as never, deps.config.limits)) as never);
  }
  const first = workflow.edges.find((e) => e.from === START_NODE)!.to;
  // The gate baseline starts before the first node and runs beside it (a no-op for agent and chat threads); it is not
  // a workflow step.
  graph.addNode(BASELINE_NODE, reportingEnd(BASELINE_NODE, gateBaselineNode(deps)) as never);
  graph.addEdge(START, BASELINE_NODE as never);
  graph.addEdge(BASELINE_NODE as never, graphName(first) as never);
  const routers = workflowRouters(workflow, maxFixAttempts, fanOut);
  for (const id of Object.keys(workflow.nodes)) {
    if (id === fanOut?.node) continue;
    graph.addConditionalEdges(
      id as never,
      sayingRoute(id, routers[id], (route) => graphName(route.to)) as never,
      targetsOf(id, workflow).map(graphName) as never,
    );
  }
  if (fanOut) {
    // The fanning-out node (the dispatcher) and the merge step send each running story to its own story node, several
    // in one superstep.
    const story = storyRole(fanOut.agentId, deps.agents);
    graph.addNode(STORY_NODE, reportingEnd(STORY_NODE, storyRunNode(deps, fanOut, story)) as never);
    graph.addNode(MERGE_NODE, reportingEnd(MERGE_NODE, storyMergeNode(deps, fanOut, story)) as never);
    graph.addEdge(STORY_NODE as never, MERGE_NODE as never);
    const targets = [...new Set([...targetsOf(fanOut.node, workflow), STORY_NODE])].map(graphName);
    const target = (route: Route, state: PipelineStateType) => storySends(state) ?? graphName(route.to);
    graph.addConditionalEdges(fanOut.node as never, sayingRoute(fanOut.node, routers[fanOut.node], target) as never, targets as never);
    graph.addConditionalEdges(MERGE_NODE as never, sayingRoute(MERGE_NODE, routers[MERGE_NODE], target) as never, targets as never);
  }
  const agents = Object.entries(workflow.nodes)
    .filter(([, s]) => s.kind === "agent")
    .map(([id]) => id);
  // Only agents escalate: a workflow of gates, switches and human steps has no escalate node (LangGraph refuses a
  // node nothing reaches).
  if (agents.length) {
    graph.addNode("escalate", reportingEnd("escalate", withRunLimits("escalate", escalateNode, deps.config.limits)) as never);
    graph.addConditionalEdges("escalate" as never, sayingRoute("escalate", routers.escalate, (route) => route.to) as never, agents as never);
  }
  return graph.compile({ checkpointer });
}

export type WorkflowGraph = ReturnType<typeof buildWorkflowGraph>;

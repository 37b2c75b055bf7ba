import type { ResolvedConfig } from "../config/schema.js";
import type { AgentCapability } from "../roles/catalog.js";
import type { Workflow } from "../workflow/schema.js";
import { fanOutOf } from "./stories/fan-out.js";

/** What kind of thread it is: a workflow run, one agent on its own, or a chat. Stored in the thread's state. */
export type ThreadProfile = { mode: "run" } | { mode: "agent"; agentId: string } | { mode: "chat" };

/** The node (and agent) id of a chat thread. */
export const CHAT_NODE = "chat";

/** The one-node workflow an `agent` or `chat` thread runs: start → the agent → end. */
export function soloWorkflow(profile: Exclude<ThreadProfile, { mode: "run" }>): Workflow {
  const node = profile.mode === "agent" ? profile.agentId : CHAT_NODE;
  return {
    nodes: { [node]: { kind: "agent", agent: node } },
    edges: [
      { from: "start", to: node },
      { from: node, to: "end" },
    ],
  };
}

/** The config a thread runs with: a `run` thread the configured workflow, the others their one-node workflow. */
export function configForProfile(config: ResolvedConfig, profile: ThreadProfile): ResolvedConfig {
  if (profile.mode === "run") return config;
  return Object.freeze({ ...config, workflow: soloWorkflow(profile), approve: [], customWorkflow: false });
}

/**
 * A thread's profile from its latest checkpoint's values. Threads from before modes existed have no mode and are
 * `run`; an unknown mode (or an agent thread without its agent) falls back to `chat`, as the workflow router does.
 */
export function profileOfValues(values: { mode?: unknown; agentId?: unknown }): ThreadProfile {
  if (values.mode === undefined || values.mode === "run") return { mode: "run" };
  if (values.mode === "agent" && typeof values.agentId === "string") return { mode: "agent", agentId: values.agentId };
  return { mode: "chat" };
}

/** The gate baseline's node (BASELINE_NODE of nodes/gate-baseline.ts, a heavy module; the graph-nodes test ties them). */
export const BASELINE_NODE_NAME = "gate_baseline";

/**
 * The node names of the graph `buildWorkflowGraph` compiles for a config (LangGraph's `__start__` included), so a
 * reader of checkpoints knows which triggers LangGraph would still run. tests/unit/engine/graph-nodes.test.ts
 * checks it against the compiled graph.
 */
export function graphNodeNames(
  config: Pick<ResolvedConfig, "workflow" | "customWorkflow">,
  agents?: ReadonlyMap<string, { capabilities?: readonly AgentCapability[] }>,
): ReadonlySet<string> {
  const names = new Set(["__start__", ...Object.keys(config.workflow.nodes), BASELINE_NODE_NAME]);
  // Only a workflow with agents has the escalate node (graph.ts).
  if (Object.values(config.workflow.nodes).some((n) => n.kind === "agent")) names.add("escalate");
  // Stories in parallel: the node whose role fans them out dispatches them (without the agents, a custom agent that
  // declares it is not known: the reader then meets a trigger it does not know and leaves the thread to LangGraph).
  if (fanOutOf(config, agents)) names.add("story_dev").add("story_merge");
  return names;
}

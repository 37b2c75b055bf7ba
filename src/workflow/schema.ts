import { z } from "zod";

const nodeId = z.string().regex(/^[a-z][a-z0-9_-]*$/, "ids are lower-case letters, digits, - and _, starting with a letter");
const flagName = z.string().regex(/^[a-z][a-z0-9_]*$/, "flag names are lower-case letters, digits and _, starting with a letter");

const agentNode = z.strictObject({
  kind: z.literal("agent"),
  /** The agents/<id>.md to run; defaults to the node's id. */
  agent: nodeId.optional(),
  /** Run these gates (true: all configured gates) before the agent, which then judges them (the tea pattern). */
  gates: z.union([z.boolean(), z.array(z.string().min(1)).min(1)]).optional(),
  /** Boolean flags this agent decides in its handoff; edges can branch on them. */
  sets: z.array(flagName).optional(),
  /** How many times the node may run in one thread; bounds a loop. */
  maxVisits: z.number().int().positive().optional(),
});

const gateNode = z.strictObject({
  kind: z.literal("gate"),
  /** Gate names from `gates` (default: all). A failed required gate sets `gate_blocked` and counts a fix attempt. */
  gates: z.array(z.string().min(1)).min(1).optional(),
  maxVisits: z.number().int().positive().optional(),
});

const switchNode = z.strictObject({
  kind: z.literal("switch"),
  /** What the model decides, in words; the cases are listed after it. */
  prompt: z.string().min(1).optional(),
  cases: z.array(z.strictObject({ route: nodeId, when: z.string().min(1) })),
  /** Model for the decision (default: the configured model). */
  model: z.string().min(1).optional(),
  maxVisits: z.number().int().positive().optional(),
});

const humanNode = z.strictObject({
  kind: z.literal("human"),
  /** What the human is asked to do. */
  prompt: z.string().min(1),
  /** The agent node whose output is reviewed: approve continues, edit replaces its output, reject sends it back. */
  reviews: nodeId.optional(),
  maxVisits: z.number().int().positive().optional(),
});

export const workflowNodeSchema = z.discriminatedUnion("kind", [agentNode, gateNode, switchNode, humanNode]);

const edge = z.strictObject({
  from: z.string().min(1),
  to: z.string().min(1),
  /** A condition on state flags: `flag`, `!flag`, joined with `&&`. No condition: always taken (the fallback). */
  when: z.string().min(1).optional(),
  /** For an edge leaving a switch node: the case route it serves, or `default`. */
  case: z.string().min(1).optional(),
});

/** `workflow` in yolo.config.ts: nodes by id, and edges (`start` and `end` are the graph's ends). */
export const workflowSchema = z.strictObject({
  nodes: z.record(nodeId, workflowNodeSchema),
  edges: z.array(edge).min(1),
});

export type Workflow = z.output<typeof workflowSchema>;
export type WorkflowNode = z.output<typeof workflowNodeSchema>;
export type WorkflowEdge = z.output<typeof edge>;
export type AgentNodeSpec = z.output<typeof agentNode>;
export type SwitchNodeSpec = z.output<typeof switchNode>;
export type HumanNodeSpec = z.output<typeof humanNode>;
export type GateNodeSpec = z.output<typeof gateNode>;

export const START_NODE = "start";
export const END_NODE = "end";
export const DEFAULT_CASE = "default";

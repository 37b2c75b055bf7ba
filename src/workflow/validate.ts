import { type AgentCapability, BUILT_IN_ROLES, declares, isPipelineRole } from "../roles/catalog.js";
import { judgesItsGates } from "./gate-nodes.js";
import { BUILT_IN_FLAGS, parseCondition } from "./conditions.js";
import { DEFAULT_CASE, END_NODE, START_NODE, type Workflow } from "./schema.js";

const RESERVED = new Set([START_NODE, END_NODE, "escalate", "__start__", "__end__"]);

export interface ValidationContext {
  /** Ids of the agents that loaded (defaults and the project's). */
  agentIds: Set<string>;
  /** Names of the configured gates, or null when gates are detected at run time. */
  gateNames: string[] | null;
  /** `approve` from config, checked against the nodes. */
  approve: string[];
  /** The capabilities each agent's own file declares (`capabilities:`), by agent id; none when absent. */
  agentCapabilities?: ReadonlyMap<string, readonly AgentCapability[]>;
}

type NodeSpec = Workflow["nodes"][string];

/**
 * Every problem of a workflow, each with its config path, so they can all be reported at once before anything
 * runs: unknown agents and gates, edges to missing nodes, unreachable nodes, dead ends, switches without cases
 * or case edges, conditions on undeclared flags, and cycles without a bound.
 */
export function validateWorkflow(workflow: Workflow, ctx: ValidationContext): string[] {
  const problems: string[] = [];
  for (const [id, spec] of Object.entries(workflow.nodes)) problems.push(...nodeProblems(id, spec, workflow, ctx));
  const declaredFlags = new Set<string>(BUILT_IN_FLAGS);
  for (const spec of Object.values(workflow.nodes)) if (spec.kind === "agent") for (const f of spec.sets ?? []) declaredFlags.add(f);
  for (const [i, edge] of workflow.edges.entries()) problems.push(...edgeProblems(edge, `workflow.edges[${i}]`, workflow, declaredFlags));
  problems.push(...reachProblems(workflow));
  ctx.approve.forEach((target, i) => {
    const spec = workflow.nodes[target];
    if (spec?.kind !== "agent") problems.push(`approve[${i}]: "${target}" is not an agent node of the workflow`);
  });
  problems.push(...fanOutProblems(workflow, ctx));
  for (const cycle of cycles(workflow)) {
    if (!isBounded(cycle, workflow, ctx)) {
      problems.push(
        `workflow.edges: the cycle ${[...cycle, cycle[0]].join(" → ")} has no bound; set maxVisits on one of its nodes, or condition one of its edges on fix_attempts_remain with a gate check (a gate node or an agent with gates) in the loop`,
      );
    }
  }
  return problems;
}

// A node's own problems: a reserved id, an unknown agent or gate, a flag it may not set, a switch's cases, a review of
// something other than an agent, no way out.
function nodeProblems(id: string, spec: NodeSpec, workflow: Workflow, ctx: ValidationContext): string[] {
  const problems: string[] = [];
  const at = `workflow.nodes.${id}`;
  if (RESERVED.has(id)) problems.push(`${at}: "${id}" is reserved; choose another node id`);
  if (spec.kind === "agent") {
    const agent = spec.agent ?? id;
    if (!ctx.agentIds.has(agent)) {
      problems.push(
        `${at}${spec.agent ? ".agent" : ""}: unknown agent "${agent}"; add agents/${agent}.md or use one of: ${[...ctx.agentIds].sort().join(", ")}`,
      );
    }
    if (Array.isArray(spec.gates)) checkGates(spec.gates, `${at}.gates`, ctx, problems);
    for (const [i, f] of (spec.sets ?? []).entries()) {
      if ((BUILT_IN_FLAGS as readonly string[]).includes(f)) problems.push(`${at}.sets[${i}]: "${f}" is a built-in flag; agents cannot set it`);
    }
  }
  if (spec.kind === "gate" && spec.gates) checkGates(spec.gates, `${at}.gates`, ctx, problems);
  if (spec.kind === "switch") problems.push(...switchProblems(id, spec, workflow));
  if (spec.kind === "human" && spec.reviews !== undefined) {
    const target = workflow.nodes[spec.reviews];
    if (target?.kind !== "agent") problems.push(`${at}.reviews: "${spec.reviews}" is not an agent node`);
  }
  if (spec.kind !== "switch" && !workflow.edges.some((e) => e.from === id && !e.when)) {
    problems.push(`${at}: no unconditional edge leaves it; add a fallback edge (for example to "end")`);
  }
  return problems;
}

// A switch needs cases, each declared once, none named default, each served by an edge.
function switchProblems(id: string, spec: Extract<NodeSpec, { kind: "switch" }>, workflow: Workflow): string[] {
  const problems: string[] = [];
  const at = `workflow.nodes.${id}`;
  if (!spec.cases.length) problems.push(`${at}.cases: a switch needs at least one case`);
  const routes = spec.cases.map((c) => c.route);
  spec.cases.forEach((c, i) => {
    if (c.route === DEFAULT_CASE) problems.push(`${at}.cases[${i}].route: "default" is implicit; do not declare it as a case`);
    if (routes.indexOf(c.route) !== i) problems.push(`${at}.cases[${i}].route: "${c.route}" is declared twice`);
    if (!workflow.edges.some((e) => e.from === id && e.case === c.route)) {
      problems.push(`${at}.cases[${i}]: no edge serves case "${c.route}"; add { from: "${id}", to: …, case: "${c.route}" }`);
    }
  });
  return problems;
}

// An edge's problems: ends that are not nodes, a switch's edge without a known case (or with a condition), a case
// elsewhere, a condition that does not parse or names an undeclared flag.
function edgeProblems(edge: Workflow["edges"][number], at: string, workflow: Workflow, declaredFlags: Set<string>): string[] {
  const problems: string[] = [];
  const isNode = (id: string) => Object.hasOwn(workflow.nodes, id);
  if (edge.from === END_NODE) problems.push(`${at}.from: nothing leaves "end"`);
  else if (edge.from !== START_NODE && !isNode(edge.from)) problems.push(`${at}.from: no node "${edge.from}"`);
  if (edge.to === START_NODE) problems.push(`${at}.to: nothing goes back to "start"`);
  else if (edge.to !== END_NODE && !isNode(edge.to)) problems.push(`${at}.to: no node "${edge.to}"`);
  const from = workflow.nodes[edge.from];
  if (from?.kind === "switch") {
    const routes = from.cases.map((c) => c.route);
    if (edge.case === undefined) problems.push(`${at}: an edge leaving switch "${edge.from}" needs a case (one of ${[...routes, DEFAULT_CASE].join(", ")})`);
    else if (edge.case !== DEFAULT_CASE && !routes.includes(edge.case)) problems.push(`${at}.case: "${edge.case}" is not a case of switch "${edge.from}"`);
    if (edge.when) problems.push(`${at}.when: edges leaving a switch are chosen by case, not by condition`);
  } else if (edge.case !== undefined) {
    problems.push(`${at}.case: only edges leaving a switch node have a case`);
  }
  if (edge.when) {
    const terms = parseCondition(edge.when);
    if (!terms) problems.push(`${at}.when: cannot read "${edge.when}"; write flags joined with &&, each optionally negated with !`);
    for (const t of terms ?? []) {
      if (!declaredFlags.has(t.flag))
        problems.push(
          `${at}.when: flag "${t.flag}" is not declared; built-in flags: ${BUILT_IN_FLAGS.join(", ")}; other flags must be in an agent node's \`sets\``,
        );
    }
  }
  return problems;
}

// One way in, every node reachable from it, and a way out.
function reachProblems(workflow: Workflow): string[] {
  const problems: string[] = [];
  const starts = workflow.edges.filter((e) => e.from === START_NODE);
  if (starts.length !== 1) problems.push(`workflow.edges: exactly one edge must leave "start" (found ${starts.length})`);
  const reachable = reachableFrom(START_NODE, workflow);
  for (const id of Object.keys(workflow.nodes)) if (!reachable.has(id)) problems.push(`workflow.nodes.${id}: unreachable from "start"`);
  if (!reachable.has(END_NODE)) problems.push(`workflow.edges: no path reaches "end"`);
  return problems;
}

// One node of a workflow builds pm's stories in parallel: two agent nodes whose files declare it cannot both.
function fanOutProblems(workflow: Workflow, ctx: ValidationContext): string[] {
  const fanning = Object.entries(workflow.nodes)
    .filter(([id, spec]) => spec.kind === "agent" && declares({ capabilities: ctx.agentCapabilities?.get(spec.agent ?? id) }, "fans-out-stories"))
    .map(([id]) => id);
  if (fanning.length < 2) return [];
  return [`workflow.nodes: ${fanning.join(", ")} all fan out stories (their agents' \`capabilities\`); only one node of a workflow may`];
}

// Whether an agent judges gates: its node runs gates, its role is a built-in judge, or its file says it judges them.
function judges(id: string, spec: NodeSpec, ctx: ValidationContext): boolean {
  if (spec.kind !== "agent") return false;
  const agent = spec.agent ?? id;
  if (judgesItsGates(spec)) return true;
  return (isPipelineRole(agent) && BUILT_IN_ROLES[agent].judgesGates === true) || declares({ capabilities: ctx.agentCapabilities?.get(agent) }, "judges-gates");
}

// A cycle ends: a node in it has maxVisits, a human is in it, or it counts fix attempts (a gate check in it) and
// one of its edges is conditioned on fix_attempts_remain.
function isBounded(cycle: string[], workflow: Workflow, ctx: ValidationContext): boolean {
  const countsAttempts = cycle.some((id) => {
    const spec = workflow.nodes[id];
    return spec?.kind === "gate" || (spec !== undefined && judges(id, spec, ctx));
  });
  return (
    cycle.some((id) => workflow.nodes[id]?.maxVisits !== undefined) ||
    (countsAttempts &&
      workflow.edges.some(
        (e) =>
          cycle.includes(e.from) && cycle.includes(e.to) && (parseCondition(e.when ?? "") ?? []).some((t) => t.flag === "fix_attempts_remain" && !t.negated),
      )) ||
    cycle.some((id) => workflow.nodes[id]?.kind === "human")
  );
}

function checkGates(names: string[], at: string, ctx: ValidationContext, problems: string[]): void {
  if (ctx.gateNames === null) return;
  names.forEach((name, i) => {
    if (!ctx.gateNames!.includes(name)) problems.push(`${at}[${i}]: no gate named "${name}" in \`gates\` (${ctx.gateNames!.join(", ") || "none configured"})`);
  });
}

function reachableFrom(start: string, workflow: Workflow): Set<string> {
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length) {
    const id = queue.shift()!;
    for (const e of workflow.edges) {
      if (e.from === id && !seen.has(e.to)) {
        seen.add(e.to);
        queue.push(e.to);
      }
    }
    // A human reviewer that rejects sends the work back to the node it reviews.
    const spec = workflow.nodes[id];
    if (spec?.kind === "human" && spec.reviews && !seen.has(spec.reviews)) {
      seen.add(spec.reviews);
      queue.push(spec.reviews);
    }
  }
  return seen;
}

/** The strongly connected components that contain a cycle (Tarjan), each as a list of node ids. */
function cycles(workflow: Workflow): string[][] {
  const ids = Object.keys(workflow.nodes);
  const next = (id: string) => workflow.edges.filter((e) => e.from === id && Object.hasOwn(workflow.nodes, e.to)).map((e) => e.to);
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || next(v).includes(v)) out.push(component.reverse());
    }
  };
  for (const id of ids) if (!idx.has(id)) visit(id);
  return out;
}

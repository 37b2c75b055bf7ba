import type { Workflow, WorkflowNode } from "./schema.js";

// schema.ts's START_NODE, END_NODE and DEFAULT_CASE, spelled out: importing its values would load zod (its schemas),
// and `yolo graph` draws without it. tests/unit/workflow/mermaid.test.ts checks that they agree.
export const MERMAID_NAMES = { start: "start", end: "end", defaultCase: "default" } as const;
const { start: START_NODE, end: END_NODE, defaultCase: DEFAULT_CASE } = MERMAID_NAMES;

/** One arrow of the drawing, with LangGraph's names for the ends (`__start__`, `__end__`). */
export interface DrawnEdge {
  from: string;
  to: string;
  /** The condition, case or "otherwise" it is taken on; none for an edge that is always taken. */
  label: string | null;
  /** Taken only on a condition or case (dotted), rather than whenever the node finishes (solid). */
  conditional: boolean;
}

const graphId = (id: string) => (id === START_NODE ? "__start__" : id === END_NODE ? "__end__" : id);

/**
 * The arrows a workflow's runs can take, as `routeFrom` takes them: conditional edges in order, then the
 * fallback ("otherwise"; an implicit one to the end only when a node has none), switch edges by case, a
 * rejected review back to the node it reviews. The escalate node's arrows (any agent → escalate → the same
 * agent) are left to a note: drawn, they would double the arrows without saying anything new.
 */
export function workflowEdges(workflow: Workflow): DrawnEdge[] {
  const drawn: DrawnEdge[] = [];
  const first = workflow.edges.find((e) => e.from === START_NODE);
  if (first) drawn.push({ from: "__start__", to: graphId(first.to), label: null, conditional: false });
  for (const [id, spec] of Object.entries(workflow.nodes)) {
    const out = workflow.edges.filter((e) => e.from === id);
    if (spec.kind === "switch") {
      for (const e of out) drawn.push({ from: id, to: graphId(e.to), label: e.case ?? DEFAULT_CASE, conditional: true });
      continue;
    }
    if (spec.kind === "human") drawn.push({ from: id, to: graphId(spec.reviews ?? END_NODE), label: "rejected", conditional: true });
    let fallback = false;
    for (const e of out) {
      if (e.when) {
        drawn.push({ from: id, to: graphId(e.to), label: e.when, conditional: true });
        continue;
      }
      // The first edge without a condition is always taken when reached; edges after it never are.
      const guards = drawn.filter((d) => d.from === id && d.conditional);
      const label = !guards.length ? null : guards.every((d) => d.label === "rejected") ? "approved" : "otherwise";
      drawn.push({ from: id, to: graphId(e.to), label, conditional: false });
      fallback = true;
      break;
    }
    if (!fallback) drawn.push({ from: id, to: "__end__", label: "otherwise", conditional: true });
  }
  return drawn;
}

/** A node's box: agents rounded, gates as subroutines, switches as diamonds, human steps as parallelograms. */
function box(id: string, spec: WorkflowNode): string {
  if (spec.kind === "gate") return `${id}[[${id}]]`;
  if (spec.kind === "switch") return `${id}{${id}}`;
  if (spec.kind === "human") return `${id}[/${id}/]`;
  return `${id}(${id})`;
}

function arrow(e: DrawnEdge): string {
  const label = e.label === null ? "" : `|"${e.label}"|`;
  return `\t${e.from} ${e.conditional ? "-.->" : "-->"}${label} ${e.to};`;
}

/**
 * The workflow as a Mermaid flowchart: solid arrows for edges always taken, dotted ones labelled with their
 * condition or case, and a note for the escalate node instead of an arrow to and from every agent.
 */
export function drawWorkflowMermaid(workflow: Workflow): string {
  const edges = workflowEdges(workflow);
  const hasAgents = Object.values(workflow.nodes).some((s) => s.kind === "agent");
  const ends = edges.some((e) => e.to === "__end__");
  return [
    "%%{init: {'flowchart': {'curve': 'linear'}}}%%",
    "graph TD;",
    "\t__start__([start]):::first",
    ...Object.entries(workflow.nodes).map(([id, spec]) => `\t${box(id, spec)}`),
    ...(ends ? ["\t__end__([end]):::last"] : []),
    ...(hasAgents ? ['\tescalate{{"escalate: an agent that asks a human waits here; the answer goes back to that agent"}}:::note'] : []),
    ...edges.map(arrow),
    "\tclassDef default fill:#f2f0ff,line-height:1.2;",
    "\tclassDef first fill-opacity:0;",
    "\tclassDef last fill:#bfb6fc;",
    "\tclassDef note fill:#fff,stroke-dasharray:3 3;",
  ].join("\n");
}

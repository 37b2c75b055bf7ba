import type { AgentNote } from "../state/types.js";
import { inlineMarkdown as md } from "../text/markdown.js";
import type { OutputSection } from "./types.js";

/** A user role's declared outputs, as the views, `yolo show` and the report show them. */
export type RoleOutputs = Record<string, unknown>;

const SHORT = 60;

// One value on one line, cut to a glance; lists by their length.
function brief(value: unknown): string {
  if (Array.isArray(value)) return `${value.length} ${value.length === 1 ? "item" : "items"}`;
  if (typeof value === "string") {
    const first = value.trim().split("\n")[0];
    return first.length > SHORT ? `${first.slice(0, SHORT - 1)}…` : first;
  }
  return String(value);
}

/** The outputs in one line (`risk: high, issues: 2 items`): the node's summary in the live and plain views. */
export function outputsLine(outputs: RoleOutputs): string {
  const parts = Object.entries(outputs).map(([k, v]) => `${k}: ${brief(v)}`);
  return parts.length ? parts.join(", ") : "done";
}

/** The outputs in full, one field a line and list items below it, indented by `indent`. */
export function outputLines(outputs: RoleOutputs, indent = ""): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(outputs)) {
    if (Array.isArray(value)) {
      out.push(`${indent}${key}:${value.length ? "" : " (none)"}`);
      for (const item of value) out.push(`${indent}  - ${String(item).split("\n").join(`\n${indent}    `)}`);
    } else out.push(`${indent}${key}: ${String(value).split("\n").join(`\n${indent}  `)}`);
  }
  return out;
}

/** The report's lines of the outputs: one item a field, list items nested under it. */
function outputMarkdown(outputs: RoleOutputs): string[] {
  const out: string[] = [];
  for (const [field, value] of Object.entries(outputs)) {
    if (Array.isArray(value)) out.push(`  - ${md(field)}:${value.length ? "" : " (none)"}`, ...value.map((v) => `    - ${md(String(v))}`));
    else out.push(`  - ${md(field)}: ${md(String(value))}`);
  }
  return out;
}

/**
 * The nodes' notes as one `Notes` section (`Agent outputs` in the report): a user role's declared values field by
 * field, a custom agent's summary and findings. Shared by the custom role and every user role.
 */
export function noteSections(notes: Record<string, AgentNote>): OutputSection[] {
  const entries = Object.entries(notes);
  if (!entries.length) return [];
  const text = entries.map(([node, n]) =>
    n.outputs ? [`- ${node}:`, ...outputLines(n.outputs, "  ")].join("\n") : `- ${node}: ${n.summary}${n.findings.map((f) => `\n  - ${f}`).join("")}`,
  );
  const markdown = entries.flatMap(([node, n]) =>
    n.outputs ? [`- **${md(node)}**`, ...outputMarkdown(n.outputs)] : [`- **${md(node)}**: ${md(n.summary)}`, ...n.findings.map((f) => `  - ${md(f)}`)],
  );
  return [{ title: "Notes", text, markdown: { heading: "### Agent outputs", lines: markdown } }];
}

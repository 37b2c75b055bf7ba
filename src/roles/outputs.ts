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

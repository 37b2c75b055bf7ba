import { parse } from "yaml";
import type { z } from "zod";
import { type HandoffShape, roleHandoffSchema } from "./handoff-schema.js";
import type { HandoffOf } from "./types.js";

/** An edited YAML artifact checked against the role's own handoff schema: the handoff it stands for, or why not. */
export function parseYamlEdit<F extends z.ZodRawShape>(role: HandoffShape, content: string): { handoff: HandoffOf<F> } | { error: string } {
  let value: unknown;
  try {
    value = parse(content);
  } catch (e) {
    return { error: `the edited artifact is not valid YAML: ${(e as Error).message}` };
  }
  const checked = roleHandoffSchema(role).safeParse(value);
  if (!checked.success)
    return { error: `the edited artifact is invalid: ${checked.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}` };
  // The schema was built from these very fields.
  return { handoff: checked.data as HandoffOf<F> };
}

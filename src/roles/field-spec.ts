import { RESERVED_HANDOFF_KEYS } from "./handoff-schema.js";

/** The value types a user role's handoff field can have. */
export const FIELD_TYPES = ["string", "string[]", "boolean", "number", "enum"] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** One handoff field declared in an agent file's frontmatter (`handoff: { risk: { type: enum, values: [...] } }`). */
export interface HandoffFieldSpec {
  type: FieldType;
  /** The allowed values of an `enum`. */
  values?: string[];
  description: string;
  /** Required unless `required: false`. */
  required: boolean;
}
export type HandoffFieldSpecs = Record<string, HandoffFieldSpec>;

const NAME = /^[a-z][a-z0-9_]{0,39}$/;
const SPEC_KEYS = ["type", "values", "description", "required"];
export const MAX_FIELDS = 16;
const MAX_VALUES = 50;

/** Checks the `handoff:` block of an agent file: the fields, or every problem with its path under `handoff`. */
export function checkFieldSpecs(
  value: unknown,
): { ok: true; specs: HandoffFieldSpecs } | { ok: false; problems: { path: (string | number)[]; message: string }[] } {
  const problems: { path: (string | number)[]; message: string }[] = [];
  const at = (path: (string | number)[], message: string) => problems.push({ path, message });
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return {
      ok: false,
      problems: [{ path: [], message: 'expected a mapping of field names to their type, such as "risk: { type: enum, values: [low, high] }"' }],
    };
  }
  const entries = Object.entries(value);
  if (!entries.length) at([], "declares no fields; remove `handoff:` or declare at least one field");
  if (entries.length > MAX_FIELDS) at([], `declares ${entries.length} fields; at most ${MAX_FIELDS} are allowed`);
  const specs: HandoffFieldSpecs = {};
  for (const [name, raw] of entries) {
    if (RESERVED_HANDOFF_KEYS.includes(name)) {
      at([name], `"${name}" is a reserved handoff key (every agent can escalate with escalate_to_human and question); rename the field`);
      continue;
    }
    if (!NAME.test(name)) {
      at([name], "a field name must be lowercase letters, digits and underscores, starting with a letter (at most 40 characters)");
      continue;
    }
    const spec = checkSpec(raw, (path, message) => at([name, ...path], message));
    if (spec) specs[name] = spec;
  }
  return problems.length ? { ok: false, problems } : { ok: true, specs };
}

// One field's declaration; reports its problems through `at` and returns null when it has any.
function checkSpec(raw: unknown, at: (path: (string | number)[], message: string) => void): HandoffFieldSpec | null {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    at([], `expected a mapping such as "{ type: string, description: … }"; types: ${FIELD_TYPES.join(", ")}`);
    return null;
  }
  const r = raw as Record<string, unknown>;
  let bad = false;
  const fail = (path: (string | number)[], message: string) => {
    bad = true;
    at(path, message);
  };
  for (const key of Object.keys(r)) if (!SPEC_KEYS.includes(key)) fail([key], `unknown key; known keys: ${SPEC_KEYS.join(", ")}`);
  if (r.type === undefined) fail(["type"], `required; one of ${FIELD_TYPES.join(", ")}`);
  else if (!(FIELD_TYPES as readonly unknown[]).includes(r.type)) fail(["type"], `unknown type ${JSON.stringify(r.type)}; one of ${FIELD_TYPES.join(", ")}`);
  if (r.type === "enum") {
    const values = r.values;
    if (!Array.isArray(values) || !values.length) fail(["values"], "an enum needs `values`: a list of the allowed strings, such as [low, medium, high]");
    else {
      if (values.length > MAX_VALUES) fail(["values"], `at most ${MAX_VALUES} values`);
      values.forEach((v, i) => {
        if (typeof v !== "string" || !v.trim() || v.length > 100) fail(["values", i], "expected a non-empty string of at most 100 characters");
        else if (values.indexOf(v) !== i) fail(["values", i], `"${v}" is listed twice`);
      });
    }
  } else if (r.values !== undefined) fail(["values"], "only an enum has `values`; use type: enum or remove them");
  if (r.description !== undefined && (typeof r.description !== "string" || r.description.length > 500))
    fail(["description"], "expected a string of at most 500 characters");
  if (r.required !== undefined && typeof r.required !== "boolean") fail(["required"], "expected true or false");
  if (bad) return null;
  return {
    type: r.type as FieldType,
    ...(r.type === "enum" ? { values: r.values as string[] } : {}),
    description: (r.description as string | undefined) ?? "",
    required: r.required !== false,
  };
}

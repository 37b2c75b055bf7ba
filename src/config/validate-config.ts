import type { z } from "zod";
import { ConfigError } from "../errors.js";
import { keysAt, nearestKey } from "./did-you-mean.js";
import { configSchema, userConfigSchema, type UserLevelConfig } from "./schema.js";

// The validating half of the config loader: zod and the schemas. load.ts imports it only when a config file's
// value is not in the validation cache (see load-cache.ts).

/** A config file after validation: defaults inside the schema (gate `required`, `timeoutS`) are applied. */
export type FileConfig = z.output<typeof configSchema>;

/** Validates a config value against a strict schema (yolo.config.ts's by default); every issue becomes one dot-path line. */
export function validateConfig(value: unknown, file: string): FileConfig;
export function validateConfig<T>(value: unknown, file: string, schema: z.ZodType<T>): T;
export function validateConfig(value: unknown, file: string, schema: z.ZodType = configSchema): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ConfigError(`${file} must export a config object as its default export (export default defineConfig({ ... })).`);
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.flatMap((issue) => formatIssue(issue, schema));
  throw new ConfigError(`${file} has ${problems.length === 1 ? "a problem" : `${problems.length} problems`}; fix and run again:`, problems);
}

/** Validates the user-level config's value (commands, env, sandbox). */
export function validateUserConfig(value: unknown, file: string): UserLevelConfig {
  return validateConfig(value, file, userConfigSchema);
}

// One zod issue → one or more "dot.path: message" lines; unknown keys get one line each, with the key meant.
function formatIssue(issue: z.core.$ZodIssue, schema: z.ZodType): string[] {
  if (issue.code === "unrecognized_keys") {
    const known = keysAt(schema, issue.path);
    return issue.keys.map((key) => {
      const near = nearestKey(key, known);
      const hint = near ? `; did you mean "${near}"?` : known.length ? `; known keys: ${known.join(", ")}` : "";
      return `${formatPath([...issue.path, key])}: unknown key${hint}`;
    });
  }
  const path = formatPath(issue.path);
  return [path ? `${path}: ${issue.message}` : issue.message];
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out ? `.${String(segment)}` : String(segment);
  }
  return out;
}

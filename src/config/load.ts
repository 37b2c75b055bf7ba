import { readFileSync } from "node:fs";
import { join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { z } from "zod";
import { ConfigError } from "../errors.js";
import { packageRoot } from "../package-root.js";
import { configSchema, userConfigSchema, type UserLevelConfig } from "./schema.js";
import { keysAt, nearestKey } from "./did-you-mean.js";
import { findConfigFile, findUserConfigFile } from "./find.js";

// Finding a config file needs neither zod nor jiti: find.ts, which commands use to skip loading this module.
export { CONFIG_FILE_NAMES, findConfigFile, findUserConfigFile, USER_CONFIG_FILE_NAMES } from "./find.js";

/** A config file after validation: defaults inside the schema (gate `required`, `timeoutS`) are applied. */
export type FileConfig = z.output<typeof configSchema>;

/**
 * Loads and validates `yolo.config.{ts,mts,js,mjs}` from `root`.
 * No file → `{ file: null, config: {} }`. Any problem → one ConfigError listing every problem.
 */
export async function loadConfigFile(root: string): Promise<{ file: string | null; config: FileConfig }> {
  const file = findConfigFile(root);
  if (!file) return { file: null, config: {} };
  const exported = await importConfigModule(file);
  return { file, config: validateConfig(exported, file) };
}

/** Loads and validates the user-level config (commands, env, sandbox); none → `{ file: null, config: {} }`. */
export async function loadUserConfig(env: Readonly<Record<string, string | undefined>>): Promise<{ file: string | null; config: UserLevelConfig }> {
  const file = findUserConfigFile(env);
  if (!file) return { file: null, config: {} };
  let exported: unknown;
  if (file.endsWith(".json")) {
    try {
      exported = JSON.parse(readFileSync(file, "utf8"));
    } catch (cause) {
      throw new ConfigError(`Could not load ${file}: ${cause instanceof Error ? cause.message : String(cause)}`, [], { cause });
    }
  } else exported = await importConfigModule(file);
  return { file, config: validateConfig(exported, file, userConfigSchema) };
}

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

// jiti is imported here, not at the top, so commands that never read a config (`--version`) stay cheap.
async function importConfigModule(file: string): Promise<unknown> {
  const { createJiti } = await import("jiti");
  const jiti = createJiti(import.meta.url, {
    // A globally installed yolo is not in the user's node_modules: point `import … from "yolo"` at ourselves.
    alias: { yolo: packageEntry() },
    moduleCache: false,
    interopDefault: true,
  });
  let mod: unknown;
  try {
    mod = await jiti.import(file);
  } catch (cause) {
    const message = (cause instanceof Error ? cause.message : String(cause)).trim();
    throw new ConfigError(`Could not load ${file}: ${message}`, [], { cause });
  }
  if (mod !== null && typeof mod === "object" && "default" in mod) return (mod as { default: unknown }).default;
  return undefined;
}

// The built package runs from dist/ (index.js); tests run from src/ (index.ts).
function packageEntry(): string {
  const root = packageRoot();
  const fromSource = fileURLToPath(import.meta.url).startsWith(join(root, "src") + sep);
  return fromSource ? join(root, "src", "index.ts") : join(root, "dist", "index.js");
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

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError } from "../errors.js";
import { packageRoot } from "../package-root.js";
import type { UserLevelConfig } from "./schema.js";
import { runConfigBundle } from "./bundle/run-bundle.js";
import { findConfigFile, findUserConfigFile } from "./find.js";
import { cachedValidation, privateCacheDir, storeValidation, type ValidationCache } from "./load-cache.js";
import type { FileConfig } from "./validate-config.js";

// Finding a config file needs neither zod nor jiti: find.ts, which commands use to skip loading this module.
export { CONFIG_FILE_NAMES, findConfigFile, findUserConfigFile, USER_CONFIG_FILE_NAMES } from "./find.js";

export type { FileConfig } from "./validate-config.js";

/** How config modules are loaded. */
export interface ConfigLoadOptions {
  /**
   * A directory of the user's own for the TypeScript loader's transpile cache (a cached file is used only while
   * it was made from the same source, byte for byte); it is created private, and one that another user could
   * write is not used. None: every load transpiles.
   */
  transpileCache?: string | null;
  /**
   * Where validated config values are remembered, and the build they were validated by: a value equal to one
   * validated before, by the same build, is not validated again (zod and the schemas cost more than the rest of a
   * read-only command). None: every load validates.
   */
  validationCache?: ValidationCache | null;
  /**
   * The project config's trusted bundle (src/config/bundle/, trusted by src/config/trust/config-trust.ts): loaded instead of
   * the work tree's file, so nothing a model wrote since the user trusted it runs. None: the file itself (jiti).
   */
  bundle?: { file: string; sha256: string; config: string } | null;
}

/**
 * Loads and validates `yolo.config.{ts,mts,js,mjs}` from `root`, or the trusted bundle given instead.
 * No file → `{ file: null, config: {} }`. Any problem → one ConfigError listing every problem.
 */
export async function loadConfigFile(root: string, options: ConfigLoadOptions = {}): Promise<{ file: string | null; config: FileConfig }> {
  const file = options.bundle?.config ?? findConfigFile(root);
  if (!file) return { file: null, config: {} };
  const exported = options.bundle ? runBundle(options.bundle) : await importConfigModule(file, options);
  return { file, config: await validated("project", exported, file, options) };
}

/** Loads and validates the user-level config (commands, env, sandbox); none → `{ file: null, config: {} }`. */
export async function loadUserConfig(
  env: Readonly<Record<string, string | undefined>>,
  options: ConfigLoadOptions = {},
): Promise<{ file: string | null; config: UserLevelConfig }> {
  const file = findUserConfigFile(env);
  if (!file) return { file: null, config: {} };
  let exported: unknown;
  if (file.endsWith(".json")) {
    try {
      exported = JSON.parse(readFileSync(file, "utf8"));
    } catch (cause) {
      throw new ConfigError(`Could not load ${file}: ${cause instanceof Error ? cause.message : String(cause)}`, [], { cause });
    }
  } else exported = await importConfigModule(file, options);
  return { file, config: await validated("user", exported, file, options) };
}

/**
 * A config value validated: from the cache when this very value (compared as JSON, byte for byte) was validated
 * by this build before, else by the schema (loaded only then), remembering a valid result.
 */
async function validated(kind: "project", value: unknown, file: string, options: ConfigLoadOptions): Promise<FileConfig>;
async function validated(kind: "user", value: unknown, file: string, options: ConfigLoadOptions): Promise<UserLevelConfig>;
async function validated(kind: "project" | "user", value: unknown, file: string, options: ConfigLoadOptions): Promise<unknown> {
  const cache = options.validationCache ?? null;
  const hit = cache ? cachedValidation(cache, kind, value) : undefined;
  if (hit !== undefined) return hit;
  const { validateConfig, validateUserConfig } = await import("./validate-config.js");
  const output = kind === "project" ? validateConfig(value, file) : validateUserConfig(value, file);
  if (cache) storeValidation(cache, kind, value, output);
  return output;
}

function runBundle(bundle: { file: string; sha256: string; config: string }): unknown {
  try {
    return runConfigBundle(bundle.file, bundle.sha256, bundle.config);
  } catch (cause) {
    const message = (cause instanceof Error ? cause.message : String(cause)).trim();
    throw new ConfigError(`Could not load ${bundle.config}: ${message}`, [], { cause });
  }
}

// jiti is loaded here, not at the top, so commands that never read a config (`--version`) stay cheap; and through
// require(), because its ES module entry imports its CommonJS build, which Node would first scan for export names
// (a large part of the config's cost: docs/performance.md).
async function importConfigModule(file: string, options: ConfigLoadOptions): Promise<unknown> {
  const { createJiti } = createRequire(import.meta.url)("jiti") as typeof import("jiti");
  const jiti = createJiti(import.meta.url, {
    // A globally installed yolo is not in the user's node_modules: point `import … from "yolo"` at ourselves.
    alias: { yolo: packageEntry() },
    moduleCache: false,
    interopDefault: true,
    // Never jiti's default, a shared directory under /tmp that another local user could fill first.
    fsCache: (options.transpileCache && privateCacheDir(options.transpileCache)) || false,
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

import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";
import { findConfigFile } from "../config/find.js";
import { ConfigError } from "../errors.js";
import { configModules } from "../config/config-modules.js";
import { isTrusted, trustHooks, trustStoreFile } from "../hooks/trust.js";

type Env = Readonly<Record<string, string | undefined>>;

/** How a command treats the project's config: `record` (run, resume, agent: the user runs yolo with it) or `check`. */
export type ConfigTrustMode = "record" | "check";

/**
 * `$XDG_STATE_HOME/yolo/trusted-config.json`, beside the hooks' trust store: per project root, the hash of the
 * config the user last ran yolo with. The user's, never the project's.
 */
export function configTrustStoreFile(env: Env): string {
  return join(dirname(trustStoreFile(env)), "trusted-config.json");
}

/** The project files a command executes or starts programs from: yolo.config.* (a module) and .mcp.json. */
export function trustedConfigFiles(root: string): string[] {
  const config = findConfigFile(root);
  const mcp = join(root, ".mcp.json");
  return [...(config ? [config] : []), ...(existsSync(mcp) ? [mcp] : [])];
}

/**
 * The files the hash covers: the config and every project module it imports by a relative path (transitively),
 * then .mcp.json; and what yolo could not follow (an import outside the project, unreadable, not found).
 */
export function hashedFiles(root: string): { files: string[]; problems: string[] } {
  const config = findConfigFile(root);
  const modules = config ? configModules(root, config) : { files: [], problems: [] };
  const mcp = join(root, ".mcp.json");
  return { files: [...modules.files, ...(existsSync(mcp) ? [mcp] : [])], problems: modules.problems };
}

/** The hash of those files' names and contents; null when there are none (nothing runs, nothing to trust). */
export function configHash(root: string): string | null {
  return hashOf(root, hashedFiles(root));
}

function hashOf(root: string, { files, problems }: { files: string[]; problems: string[] }): string | null {
  if (!files.length && !problems.length) return null;
  const hash = createHash("sha256");
  for (const file of files) {
    hash.update(relative(root, file)).update("\0");
    try {
      hash.update(readFileSync(file));
    } catch (error) {
      hash.update(`unreadable:${(error as NodeJS.ErrnoException).code ?? "error"}`);
    }
    hash.update("\0");
  }
  for (const problem of problems) hash.update(`problem:${problem}\0`);
  return hash.digest("hex");
}

/** Records that the user runs yolo with the project's config as it is now (a writing command, or `yolo config trust`). */
export function recordConfigTrust(root: string, env: Env): string {
  // "No config" is recorded too: a config that appears after a run is a change like any other.
  const hash = configHash(root) ?? NO_CONFIG;
  trustHooks(configTrustStoreFile(env), root, hash);
  return hash;
}

const NO_CONFIG = "none";

/**
 * Refuses, before anything is imported, to run a project config that changed since the user last ran yolo with it:
 * a read-only command (threads, show, report, chat, doctor, …) must not execute a yolo.config.ts or start a
 * .mcp.json server that a run's model may have written. A project yolo never recorded is taken as it is (the user
 * brought it; there was no run whose model could have written it).
 */
export function checkConfigTrust(root: string, env: Env): void {
  const covered = hashedFiles(root);
  const hash = hashOf(root, covered);
  if (!hash) return;
  const store = configTrustStoreFile(env);
  if (!hasEntry(store, root)) return;
  const names = trustedConfigFiles(root).map((f) => basename(f));
  // Fail closed: a module yolo could not follow may have been written by a model, and trusting cannot vouch for it.
  if (covered.problems.length) {
    throw new ConfigError(
      `${names[0] ?? "yolo.config.ts"} cannot be checked: ${covered.problems.join("; ")}. This command does not run a config whose modules yolo cannot hash, since a model may have written them. ` +
        "Keep the modules the config imports inside the project (or import them as packages), then run `yolo run` or `yolo config trust`.",
    );
  }
  if (isTrusted(store, root, hash)) return;
  const modules = covered.files.filter((f) => !inPackage(root, f));
  const packages = packagesOf(root, covered.files);
  const imported = covered.files.length > names.length ? ` (or a ${packages.length ? "module or package" : "module"} it imports)` : "";
  // git shows no change in node_modules: a package is checked, or installed again, by the user.
  const installed = packages.length
    ? `, and the packages it imports from the project (${packages.join(", ")}), which git does not show: reinstall them if unsure`
    : "";
  throw new ConfigError(
    `${names.join(" or ")}${imported} changed since you last ran yolo with it in ${root}; this command does not run a config you have not used, since a model may have written it. ` +
      `Check the change (for example \`git diff -- ${modules.map((f) => relative(root, f)).join(" ")}\`${installed}), then run \`yolo config trust\` (or \`yolo run\`) to use it.`,
  );
}

function hasEntry(store: string, root: string): boolean {
  try {
    const value = JSON.parse(readFileSync(store, "utf8")) as Record<string, unknown>;
    return value !== null && typeof value === "object" && root in value;
  } catch {
    return false;
  }
}

const inPackage = (root: string, file: string) => relative(root, file).split(sep).includes("node_modules");

// The package folders (`node_modules/x`, `node_modules/@s/x`) the hashed files lie in, as the user would name them.
function packagesOf(root: string, files: string[]): string[] {
  const names = new Set<string>();
  for (const file of files) {
    const parts = relative(root, file).split(sep);
    const at = parts.indexOf("node_modules");
    if (at >= 0) names.add(parts.slice(0, at + (parts[at + 1]?.startsWith("@") ? 3 : 2)).join("/"));
  }
  return [...names];
}

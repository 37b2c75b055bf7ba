import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename, join, relative, sep } from "node:path";
import type { ConfigBundle } from "../bundle/build.js";
import { takeWitnesses, witnessesHold } from "../bundle/witness.js";
import { findConfigFile } from "../find.js";
import { ConfigError } from "../../errors.js";
import { configTrustEntryFile, readConfigTrust, storeBundle, type TrustEntry, userStateDir, writeConfigTrust } from "./config-trust-store.js";

type Env = Readonly<Record<string, string | undefined>>;

/** What a command may load: the trusted bundle of the project's config (none: no config), and what it was made of. */
export interface TrustedConfig {
  bundle: { file: string; sha256: string; config: string } | null;
  /** The files bundled (absolute, real), the config first; empty without a config. */
  inputs: string[];
  /** The project's `.mcp.json` as read when its hash was checked (null: none): what a run starts its servers from. */
  mcpJson: string | null;
}

/**
 * Where the trust record of `root` is kept: `$XDG_STATE_HOME/yolo/trusted-config/<hash of the root>.json`, beside the
 * hooks' trust store: the bundle of the config the user trusted (its hash; the bundle itself in
 * `config-bundles/<hash>.cjs`) and .mcp.json's hash. The user's, never the project's.
 */
export function configTrustStoreFile(env: Env, root: string): string {
  return configTrustEntryFile(userStateDir(env), root);
}

/**
 * Records that the user trusts the project's config as it is now (`yolo config trust`, `yolo init`, or the first
 * command in a project yolo never saw): bundles it with every module it reaches (src/config/bundle/build.ts) into the
 * user's state folder. A config yolo cannot bundle (a dynamic import, an import it cannot find) is refused.
 */
export async function recordConfigTrust(root: string, env: Env): Promise<TrustedConfig> {
  const config = findConfigFile(root);
  const witnessedAt = config ? takeWitnesses(root, [], [config]) : {};
  const built = config ? await bundleOrRefuse(root, config) : null;
  const mcpJson = readMcpJsonText(root);
  const entry: TrustEntry = {
    sha256: built?.sha256 ?? NO_CONFIG,
    ...(built ? { inputsSha256: built.inputsSha256 } : {}),
    mcp: hashOf(mcpJson),
    config,
    inputs: built?.inputs ?? [],
    // Taken before the bundle was read, so a change made while it was being made shows as a change.
    witnesses: built && config ? { ...takeWitnesses(root, built.inputs, [config]), ...witnessedAt } : {},
    trustedAt: new Date().toISOString(),
  };
  const file = built ? storeBundle(userStateDir(env), built) : null;
  writeConfigTrust(userStateDir(env), root, entry);
  return trusted(entry, file, mcpJson);
}

/**
 * The trusted config a command loads. A project yolo never saw is trusted as it is (the user brought it; no run of
 * yolo's could have written it). Otherwise the work tree must still make the trusted bundle: a changed config, a
 * module or package it reaches, a new file that would be found first, or a changed .mcp.json is refused with what to
 * do — never trusted again silently, whatever the command (a run, a rejecting resume, a listing).
 */
export async function trustedConfig(root: string, env: Env): Promise<TrustedConfig> {
  const store = userStateDir(env);
  const entry = readConfigTrust(store, root);
  if (!entry) return recordConfigTrust(root, env);
  const config = findConfigFile(root);
  // Read once: the text whose hash is checked is the text the run's MCP servers start from.
  const mcpJson = readMcpJsonText(root);
  if (entry.mcp !== hashOf(mcpJson)) throw changed(root, entry, ".mcp.json");
  if (!config) {
    if (entry.sha256 !== NO_CONFIG) throw changed(root, entry, null);
    return trusted(entry, null, mcpJson);
  }
  if (entry.sha256 === NO_CONFIG || entry.config !== config || !entry.witnesses) throw changed(root, entry, null);
  const file = bundleFile(store, entry.sha256);
  if (witnessesHold(entry.witnesses)) return trusted(entry, file, mcpJson);
  // Something it was made from moved: make it again; the same bundle is still the trusted one.
  const witnessedAt = takeWitnesses(root, [], [config]);
  const built = await bundleOrRefuse(root, config);
  if (built.sha256 !== entry.sha256 || built.inputsSha256 !== entry.inputsSha256)
    throw changed(root, { ...entry, inputs: [...new Set([...entry.inputs, ...built.inputs])] }, null);
  writeConfigTrust(store, root, { ...entry, inputs: built.inputs, witnesses: { ...takeWitnesses(root, built.inputs, [config]), ...witnessedAt } });
  return trusted(entry, file, mcpJson);
}

const NO_CONFIG = "none";

function trusted(entry: TrustEntry, file: string | null, mcpJson: string | null): TrustedConfig {
  const bundle = file && entry.config ? { file, sha256: entry.sha256, config: entry.config } : null;
  return { bundle, inputs: entry.inputs, mcpJson };
}

function bundleFile(stateDir: string, sha256: string): string {
  return join(stateDir, "config-bundles", `${sha256}.cjs`);
}

async function bundleOrRefuse(root: string, config: string): Promise<ConfigBundle> {
  const { buildConfigBundle } = await import("../bundle/build.js");
  const result = await buildConfigBundle(root, config);
  if (result.ok) return result.bundle;
  throw new ConfigError(
    `${basename(config)} cannot be trusted: ${result.problems.join("; ")}. yolo runs a config only as one bundle of the modules it names, resolved before it runs, ` +
      'so that a file a model writes later cannot change what runs on your machine. Import modules by a fixed name (`import x from "./x.js"`), then run `yolo config trust`.',
  );
}

function readMcpJsonText(root: string): string | null {
  try {
    return readFileSync(join(root, ".mcp.json"), "utf8");
  } catch {
    return null;
  }
}

function hashOf(text: string | null): string | null {
  return text === null ? null : createHash("sha256").update(text).digest("hex");
}

// The refusal: which file changed (as far as yolo can tell), what to look at, and the command that trusts it again.
function changed(root: string, entry: TrustEntry, what: ".mcp.json" | null): ConfigError {
  const config = findConfigFile(root);
  const names = what ?? [config ?? entry.config].filter((f): f is string => f !== null).map((f) => basename(f))[0] ?? "yolo.config.ts";
  const inside = entry.inputs.map((f) => relative(root, f)).filter((f) => !f.startsWith(".."));
  const modules = inside.filter((f) => !f.split(sep).includes("node_modules"));
  const packages = packagesOf(inside);
  const imported = !what && entry.inputs.length > 1 ? ` (or a ${packages.length ? "module or package" : "module"} it imports)` : "";
  const installed = packages.length ? `, and the packages it imports (${packages.join(", ")}), which git does not show: reinstall them if unsure` : "";
  const files = what ? [what] : [...new Set([config ? relative(root, config) : names, ...modules])];
  return new ConfigError(
    `${names}${imported} changed since you trusted it in ${root}; yolo runs only the config you trusted, since a model may have written the change. ` +
      `Check the change (for example \`git diff -- ${files.join(" ")}\`${installed}), then run \`yolo config trust\` to use it.`,
  );
}

// The package folders (`node_modules/x`, `node_modules/@s/x`) of project-relative files, as the user would name them.
function packagesOf(files: string[]): string[] {
  const names = new Set<string>();
  for (const file of files) {
    const parts = file.split(sep);
    const at = parts.lastIndexOf("node_modules");
    if (at >= 0) names.add(parts.slice(0, at + (parts[at + 1]?.startsWith("@") ? 3 : 2)).join("/"));
  }
  return [...names];
}

import { createHash } from "node:crypto";
import { readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentDefinition } from "./types.js";
import { pruneOldBuilds } from "../config/build-entries.js";
import { cacheKey, signedBy, signText } from "../config/cache-key.js";
import { plainJson, privateCacheDir } from "../config/load-cache.js";
import type { ResolvedConfig } from "../config/schema.js";
import { validationCache } from "../config/load-project.js";
import { userCacheDir } from "../config/user-cache-dir.js";
import { workflowInputs } from "../config/workflow-inputs.js";

/** Where this build remembers validated agent definitions: a private folder of the user's cache directory, and the build. */
export interface AgentsCache {
  dir: string;
  build: string;
}

/** This build's agents cache (`agents/` in the user's cache directory, beside validated config); none when run from source. */
export function agentsCache(env: Readonly<Record<string, string | undefined>>): AgentsCache | null {
  const validated = validationCache(env);
  return validated ? { dir: join(userCacheDir(env), "agents"), build: validated.build } : null;
}

const KIND = "pipeline-agents";

/**
 * The agents a run's workflow uses, validated exactly as loadPipelineAgents does (every problem at once, exit 2),
 * unless this build validated the very same inputs before — the workflow's part of the config and every file of both
 * agents folders, byte for byte — and an entry signed with this user's cache key says what they gave. The YAML parser
 * and zod (most of a run's start-up) then stay unloaded. An entry that is not exactly as written (edited, truncated,
 * signed with another key, of another build or other inputs) is ignored: the files are validated again.
 */
export async function pipelineAgents(config: ResolvedConfig, cache: AgentsCache | null): Promise<Map<string, AgentDefinition>> {
  const inputs = cache ? workflowInputs(config) : null;
  const text = inputs === null ? null : plainJson(inputs);
  const dir = cache && text !== null ? privateCacheDir(cache.dir) : null;
  const key = cache && dir ? cacheKey(dir) : null;
  const digest = cache && text !== null ? inputDigest(cache.build, text) : null;
  if (cache && key && digest) {
    const hit = readEntry(cache, key, digest);
    if (hit) return hit;
  }
  const agents = (await import("./workflow-agents.js")).loadWorkflowAgents(config);
  if (cache && key && digest) writeEntry(cache, key, digest, agents);
  return agents;
}

// The entry's name and the value it must repeat: the build, the kind and the inputs, hashed.
function inputDigest(build: string, inputs: string): string {
  return createHash("sha256").update(`${build}\0${KIND}\0${inputs}`).digest("hex");
}

// Entries are named after the build, so another build's are recognised (and removed) without being read.
const buildPrefix = (build: string) => `${createHash("sha256").update(build).digest("hex").slice(0, 12)}-`;
const entryPath = (cache: AgentsCache, digest: string) => join(cache.dir, `${buildPrefix(cache.build)}${digest.slice(0, 40)}.json`);

// What an entry's signature covers: everything it says (whoever cannot read this user's key cannot make one yolo accepts).
const signed = (build: string, digest: string, output: string) => `${build}\0${KIND}\0${digest}\0${output}`;

// The agents an intact, signed entry of this build and these inputs holds; null for anything else.
function readEntry(cache: AgentsCache, key: Buffer, digest: string): Map<string, AgentDefinition> | null {
  try {
    const entry = JSON.parse(readFileSync(entryPath(cache, digest), "utf8")) as Record<string, unknown>;
    if (entry.build !== cache.build || entry.kind !== KIND || entry.inputs !== digest) return null;
    if (typeof entry.output !== "string" || typeof entry.mac !== "string") return null;
    if (!signedBy(key, signed(cache.build, digest, entry.output), entry.mac)) return null;
    const output = JSON.parse(entry.output) as unknown;
    if (!Array.isArray(output) || !output.every((pair) => Array.isArray(pair) && pair.length === 2 && typeof pair[0] === "string")) return null;
    return new Map(output as [string, AgentDefinition][]);
  } catch {
    return null;
  }
}

// Remembers valid agents (best effort: a cache that cannot be written only costs the next start its time).
function writeEntry(cache: AgentsCache, key: Buffer, digest: string, agents: Map<string, AgentDefinition>): void {
  const output = plainJson([...agents]);
  if (output === null) return;
  const path = entryPath(cache, digest);
  try {
    const prefix = buildPrefix(cache.build);
    // When this build stores its first entry, those of builds not used for a while go (src/config/build-entries.ts).
    if (!readdirSync(cache.dir).some((name) => name.startsWith(prefix))) pruneOldBuilds(cache.dir, prefix);
    // Written beside and renamed, so a reader never sees half an entry.
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ build: cache.build, kind: KIND, inputs: digest, output, mac: signText(key, signed(cache.build, digest, output)) }), {
      mode: 0o600,
    });
    renameSync(tmp, path);
  } catch {
    // best effort
  }
}

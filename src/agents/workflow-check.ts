import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { cachedValidation, storeValidation, type ValidationCache } from "../config/load-cache.js";
import type { ResolvedConfig } from "../config/schema.js";
import { packageRoot } from "../package-root.js";

/** Where the shipped agents live (the agents loader's DEFAULT_AGENTS_DIR, without loading it: a test checks both agree). */
export const SHIPPED_AGENTS_DIR = join(packageRoot(), "agents");

/**
 * Validates the agents and the workflow exactly as a run does (loadPipelineAgents: every problem reported at once),
 * unless this build validated the very same inputs before: the workflow's part of the config and every file of
 * both agents folders, byte for byte. A command that only reads the workflow (`yolo graph`) then loads neither the
 * agents' YAML parser nor zod.
 */
export async function checkWorkflow(config: ResolvedConfig, cache: ValidationCache | null): Promise<void> {
  const inputs = cache ? workflowInputs(config) : null;
  if (cache && inputs && cachedValidation(cache, "workflow", inputs) === true) return;
  (await import("./workflow-agents.js")).loadWorkflowAgents(config);
  if (cache && inputs) storeValidation(cache, "workflow", inputs, true);
}

/**
 * Everything loadPipelineAgents reads, as plain data: the config fields it checks and the contents of every `.md`
 * in the agents folders (with every other name there, so any change to a folder changes the inputs). Null when a
 * folder or file cannot be read: the loader itself then says what is wrong.
 */
export function workflowInputs(config: ResolvedConfig): unknown {
  const folders: Record<string, Record<string, string> | null> = {};
  for (const dir of [SHIPPED_AGENTS_DIR, config.agentsDir]) {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT" && dir === config.agentsDir) {
        folders[dir] = null;
        continue;
      }
      return null;
    }
    const files: Record<string, string> = {};
    for (const name of names) {
      try {
        // A link is part of the input as a link: the loader refuses one out of the folder, so the cache never says otherwise.
        const file = join(dir, name);
        const link = lstatSync(file).isSymbolicLink() ? `\0link:${readlinkSync(file)}\0` : "";
        files[name] = name.endsWith(".md") ? `${link}${readFileSync(file, "utf8")}` : link;
      } catch {
        return null;
      }
    }
    folders[dir] = files;
  }
  const { root, agentsDir, agentsDirConfigured = false, configFile, workflow, approve, gates } = config;
  return { root, agentsDir, agentsDirConfigured, configFile, workflow, approve, gates: gates ? gates.map((g) => g.name) : null, folders };
}

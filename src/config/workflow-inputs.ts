import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../package-root.js";
import type { ResolvedConfig } from "./schema.js";

/** Where the shipped agents live (the agents loader's DEFAULT_AGENTS_DIR, without loading it: a test checks both agree). */
export const SHIPPED_AGENTS_DIR = join(packageRoot(), "agents");

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

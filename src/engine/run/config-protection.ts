import { isAbsolute, relative, sep } from "node:path";
import type { ResolvedConfig } from "../../config/schema.js";
import type { ConfigProtection } from "../../exec/settings.js";

/**
 * What the run's config adds to yolo's protected config files: the project's agents folder (when it is inside the
 * project) and the configured instruction file names. The fixed names (yolo.config.*, .mcp.json, AGENTS.md, …) are
 * protected whatever the config says (exec-files.ts).
 */
export function configProtection(config: Pick<ResolvedConfig, "root" | "agentsDir"> & { instructionFiles?: readonly string[] }): ConfigProtection {
  const rel = relative(config.root, config.agentsDir);
  const inside = rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
  return { names: [...(config.instructionFiles ?? [])], dirs: inside ? [rel.split(sep).join("/")] : [] };
}

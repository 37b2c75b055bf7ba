import { isAbsolute, relative, sep } from "node:path";
import { configImports } from "../../config/config-modules.js";
import { findConfigFile } from "../../config/find.js";
import type { ResolvedConfig } from "../../config/schema.js";
import type { ConfigProtection } from "../../exec/settings.js";

/**
 * What the run's config adds to yolo's protected config files: the project's agents folder (when it is inside the
 * project), the configured instruction file names, and what yolo.config.* imports from the project (its modules and
 * the packages installed there): a run's commands cannot change what the next run, or `yolo resume`, loads on the
 * host. The fixed names (yolo.config.*, .mcp.json, AGENTS.md, …) are protected whatever the config says (exec-files.ts).
 */
export function configProtection(config: Pick<ResolvedConfig, "root" | "agentsDir"> & { instructionFiles?: readonly string[] }): ConfigProtection {
  const rel = relative(config.root, config.agentsDir);
  const inside = rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
  const file = findConfigFile(config.root);
  const imports = file ? configImports(config.root, file) : [];
  return { names: [...(config.instructionFiles ?? [])], dirs: [...(inside ? [rel.split(sep).join("/")] : []), ...imports] };
}

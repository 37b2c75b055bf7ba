import { editFileTool } from "./edit-file.js";
import { listFilesTool } from "./list-files.js";
import { readFileTool } from "./read-file.js";
import { runCommandTool } from "./run-command.js";
import { searchFilesTool } from "./search-files.js";
import type { ToolContext, ToolDef, ToolName } from "./types.js";
import { TOOL_NAMES } from "./types.js";
import { writeFileTool } from "./write-file.js";
import { collectSecrets, Scrubber, scrubText } from "../secrets/scrub.js";

// One scrubber per environment object (a run's ToolContext keeps the same one for its whole life).
const scrubbers = new WeakMap<object, Scrubber>();

/**
 * A tool whose answers never carry a secret to the model: the values of the run environment's secret-looking
 * variables (and the process-wide registered secrets), in their common encodings, are replaced in content and summary.
 */
export function scrubbing<S extends ToolDef>(tool: S): S {
  return {
    ...tool,
    async run(args: never, ctx: ToolContext) {
      const outcome = await tool.run(args, ctx);
      let scrubber = scrubbers.get(ctx.env);
      if (!scrubber) {
        scrubber = new Scrubber(collectSecrets(ctx.env, ctx.secretEnvNames));
        scrubbers.set(ctx.env, scrubber);
      }
      return { ...outcome, content: scrubText(scrubber.scrub(outcome.content)), summary: scrubText(scrubber.scrub(outcome.summary)) };
    },
  };
}

/** Every tool the model can be offered, by name. Agents' `tools` allow-lists select from these. */
export const TOOLS: Record<ToolName, ToolDef> = {
  read_file: scrubbing(readFileTool),
  write_file: scrubbing(writeFileTool),
  edit_file: scrubbing(editFileTool),
  list_files: scrubbing(listFilesTool),
  search_files: scrubbing(searchFilesTool),
  run_command: scrubbing(runCommandTool),
};

/** A built-in tool by name, else one the run's MCP servers offer (`mcp__<server>__<tool>`). */
export function resolveTool(name: string, mcp?: { tool(name: string): ToolDef | undefined }): ToolDef | undefined {
  return getTool(name) ?? mcp?.tool(name);
}

/** The tool with this name, or undefined for a name the model made up. */
export function getTool(name: string): ToolDef | undefined {
  return (TOOL_NAMES as readonly string[]).includes(name) ? TOOLS[name as ToolName] : undefined;
}

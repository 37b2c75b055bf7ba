import { editFileTool } from "./edit-file.js";
import { listFilesTool } from "./list-files.js";
import { readFileTool } from "./read-file.js";
import { runCommandTool } from "./run-command.js";
import { searchFilesTool } from "./search-files.js";
import type { ToolDef, ToolName } from "./types.js";
import { TOOL_NAMES } from "./types.js";
import { writeFileTool } from "./write-file.js";

/** Every tool the model can be offered, by name. Agents' `tools` allow-lists select from these. */
export const TOOLS: Record<ToolName, ToolDef> = {
  read_file: readFileTool,
  write_file: writeFileTool,
  edit_file: editFileTool,
  list_files: listFilesTool,
  search_files: searchFilesTool,
  run_command: runCommandTool,
};

/** The tool with this name, or undefined for a name the model made up. */
export function getTool(name: string): ToolDef | undefined {
  return (TOOL_NAMES as readonly string[]).includes(name) ? TOOLS[name as ToolName] : undefined;
}

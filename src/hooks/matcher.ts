import type { Matcher } from "../config/hooks-schema.js";

/** Claude Code's names for yolo's built-in tools: a matcher written for Claude Code (`Bash`, `Write|Edit`) finds them too. */
export const CLAUDE_TOOL_NAMES: Readonly<Record<string, string>> = {
  run_command: "Bash",
  write_file: "Write",
  edit_file: "Edit",
  read_file: "Read",
  list_files: "Glob",
  search_files: "Grep",
};

/** True when the matcher names this tool by yolo's name or by Claude Code's. */
export function matchesTool(match: Matcher, tool: string): boolean {
  const alias = CLAUDE_TOOL_NAMES[tool];
  return match(tool) || (alias !== undefined && match(alias));
}

/** What a matcher is tested against: a tool's name, a node id, or a run status. */
export type Matcher = (name: string) => boolean;

/**
 * A matcher as Claude Code reads one: absent, "" or "*" match everything; letters, digits, `_` and `|` alone are
 * exact names (`write_file|edit_file`); anything else is a regular expression (`mcp__.*`, `^run_`).
 */
export function compileMatcher(matcher: string | undefined): { match: Matcher } | { error: string } {
  const text = matcher?.trim() ?? "";
  if (text === "" || text === "*") return { match: () => true };
  if (/^[\w|]+$/.test(text)) {
    const names = new Set(text.split("|").filter((n) => n !== ""));
    return { match: (name) => names.has(name) };
  }
  try {
    const re = new RegExp(text);
    return { match: (name) => re.test(name) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

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

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

/** The events a hook can run on: Claude Code's two tool events, and yolo's own step events. */
export const HOOK_EVENTS = ["PreToolUse", "PostToolUse", "NodeStart", "NodeEnd", "GateEnd", "RunEnd"] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

/** Seconds a hook may run before its whole process group is killed (Claude Code's default too). */
export const DEFAULT_HOOK_TIMEOUT_S = 60;

import { z } from "zod";

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

const commandHook = z.strictObject({
  type: z.literal("command"),
  /** Run with `sh -c` in the project root; the event's JSON payload arrives on stdin. */
  command: z.string().trim().min(1),
  /** Seconds before the hook is killed (default 60). */
  timeout: z.number().positive().max(3600).optional(),
  /**
   * A hook that crashes, times out or cannot start blocks what it guards (true) or is only reported (false).
   * Default: true for PreToolUse, false for the other events.
   */
  failClosed: z.boolean().optional(),
});

const matcherGroup = z.strictObject({
  /**
   * Which tool (PreToolUse, PostToolUse), node (NodeStart, NodeEnd, GateEnd) or run status (RunEnd) the hooks
   * apply to: a name, names joined by `|`, or a regular expression; absent, "" or "*": all.
   */
  matcher: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      if (value === undefined) return;
      const compiled = compileMatcher(value);
      if ("error" in compiled) ctx.addIssue({ code: "custom", message: `not a valid regular expression: ${compiled.error}` });
    }),
  hooks: z.array(commandHook).min(1),
});

const groups = z.array(matcherGroup).optional();

/** `hooks` in yolo.config.ts and ~/.config/yolo/config.ts: Claude Code's settings shape, with yolo's events. */
export const hooksConfigSchema = z
  .strictObject({ PreToolUse: groups, PostToolUse: groups, NodeStart: groups, NodeEnd: groups, GateEnd: groups, RunEnd: groups })
  .superRefine((value, ctx) => {
    // The run is over when RunEnd hooks run: there is nothing left for them to block.
    for (const [g, group] of (value.RunEnd ?? []).entries()) {
      for (const [h, hook] of group.hooks.entries()) {
        if (hook.failClosed)
          ctx.addIssue({
            code: "custom",
            path: ["RunEnd", g, "hooks", h, "failClosed"],
            message: "RunEnd hooks cannot block (the run is already over); remove failClosed",
          });
      }
    }
  });

export type HooksConfig = z.input<typeof hooksConfigSchema>;
export type CommandHookConfig = z.input<typeof commandHook>;

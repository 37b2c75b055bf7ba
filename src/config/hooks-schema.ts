import { z } from "zod";
import { compileMatcher } from "./hook-events.js";

// The matcher, the events and the timeout live in hook-events.ts (no zod): a run sets its hooks up without the schema.
export { compileMatcher, DEFAULT_HOOK_TIMEOUT_S, HOOK_EVENTS, type HookEventName, type Matcher } from "./hook-events.js";

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
  /**
   * Where the hook runs. Absent: a repository's hooks run in the agents' sandbox (the project writable, no secrets, no
   * network), the user's own on the host. `true`: on the host with the user's environment — then it is pinned by the
   * content of everything it runs (its scripts, the scripts they source, the packages they import, the package
   * manager's config) and refused when any of it changed. `false`: in the sandbox, for a user hook too.
   */
  host: z.boolean().optional(),
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

import { HookStopError } from "./hook-error.js";
import type { HookRunner, HookScope } from "./hooks.js";

/** Tools that change a file named by their `path` argument. */
const FILE_WRITERS = new Set(["write_file", "edit_file"]);

/** A tool call as hooks see it: its id, its tool and its parsed arguments (null when they did not parse). */
export interface HookedCall {
  id: string;
  name: string;
  args: Record<string, unknown> | null;
}

/** A tool call's result, as far as hooks read and change it (the agent loop's outcome has more; hooks keep it). */
export interface HookedOutcome {
  ok: boolean;
  content: string;
  summary: string;
  filesChanged?: string[];
}

/**
 * What wraps one tool call: the agent loop's `aroundTool` takes this shape (src/agents/runner.ts), so hooks need
 * not import the loop that sits above them.
 */
export type AroundTool = <R extends HookedOutcome>(call: HookedCall, run: (args?: Record<string, unknown>) => Promise<R>) => Promise<R | HookedOutcome>;

/** Characters of a tool's result a PostToolUse hook receives in `tool_response.output`. */
const RESPONSE_CHARS = 16_000;

/**
 * The agent loop's `aroundTool`: PreToolUse hooks before a call to one of the agent's tools (they may refuse it,
 * change its arguments or add context), PostToolUse hooks after it (they may feed a block or context back).
 * Calls the loop refuses anyway (handoff, bad JSON, unknown tools) run no hook; writes to a script a hook runs are
 * refused. Absent: no hooks configured.
 */
export function toolHooks(hooks: HookRunner | undefined, tools: readonly string[], scope: HookScope): AroundTool | undefined {
  if (!hooks) return undefined;
  const known = new Set(tools);
  return async (call, run) => {
    if (!call.args || !known.has(call.name)) return run();
    const input = call.args;
    if (FILE_WRITERS.has(call.name) && typeof input.path === "string" && hooks.runsFile(input.path)) {
      // A script a hook runs is the user's policy, not the agent's to change (a change is caught anyway: hooks.ts).
      return {
        ok: false,
        content: `Error: ${input.path} is run by a hook the user trusted; agents may not change it. Nothing was written.`,
        summary: `${input.path} → refused: run by a hook`,
      };
    }
    const base = { tool_name: call.name, tool_input: input, tool_use_id: call.id };
    const pre = await hooks.run("PreToolUse", call.name, base, scope);
    if (pre.stop !== null) throw new HookStopError(`a PreToolUse hook stopped the run at ${scope.node ?? "a"} ${call.name} call: ${pre.stop}`);
    if (pre.blocked.length) {
      const reason = pre.blocked.join("\n");
      return {
        ok: false,
        content: withContext(`Error: a PreToolUse hook refused this ${call.name} call; nothing was run.\n${reason}`, pre.contexts),
        summary: `refused by a hook: ${oneLine(reason)}`,
      };
    }
    const args = pre.updatedInput ? { ...input, ...pre.updatedInput } : undefined;
    const result = await run(args);
    const post = await hooks.run(
      "PostToolUse",
      call.name,
      {
        ...base,
        tool_input: args ?? input,
        tool_response: { success: result.ok, output: result.content.slice(0, RESPONSE_CHARS), files_changed: result.filesChanged ?? [] },
      },
      scope,
    );
    if (post.stop !== null) throw new HookStopError(`a PostToolUse hook stopped the run after ${scope.node ?? "a"} ${call.name} call: ${post.stop}`);
    const feedback = post.blocked.map((r) => `A PostToolUse hook reports a problem with this ${call.name} call: ${r}`);
    const content = withContext(result.content, [...pre.contexts, ...feedback, ...post.contexts]);
    return content === result.content ? result : { ...result, content };
  };
}

/** A tool result with what hooks add for the model, each in its own paragraph. */
function withContext(content: string, notes: readonly string[]): string {
  return notes.length ? `${content}\n\n${notes.map((n) => `[hook] ${n}`).join("\n\n")}` : content;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

import type { HookExecResult } from "./exec-hook.js";
import type { HookEventName } from "../config/hooks-schema.js";

/** What one hook run decided, in yolo's words (the `decision` of a `hook.result` event). */
export type HookDecision = "none" | "allow" | "deny" | "block" | "stop" | "error" | "timeout";

export interface HookVerdict {
  decision: HookDecision;
  /** This run stops what it guards: refuses the tool call, feeds back a block, or stops the run. */
  blocked: boolean;
  /** Why: the refusal or feedback the model reads, a failure's stderr tail, or why the run stops. */
  reason: string | null;
  /** `additionalContext`: text added to what the model reads. */
  context: string | null;
  /** PreToolUse `updatedInput`: fields that replace the tool call's arguments. */
  updatedInput: Record<string, unknown> | null;
  /** `systemMessage`: shown to the user as a warning. */
  systemMessage: string | null;
}

/** Events where exit 2 and `decision: "block"` mean something; elsewhere exit 2 is a failure like any other. */
const BLOCKABLE = new Set<HookEventName>(["PreToolUse", "PostToolUse", "NodeStart"]);

const TAIL_CHARS = 2000;

/**
 * Reads a finished hook as Claude Code does: exit 0 (its stdout may be a JSON object with `continue`,
 * `decision`, `reason`, `systemMessage` and `hookSpecificOutput`), exit 2 (a block, with stderr as the reason),
 * anything else a failure, which blocks only when the hook fails closed.
 */
export function readVerdict(event: HookEventName, run: HookExecResult, failClosed: boolean, timeoutS: number): HookVerdict {
  const base: HookVerdict = { decision: "none", blocked: false, reason: null, context: null, updatedInput: null, systemMessage: null };
  const failed = (decision: "error" | "timeout", reason: string): HookVerdict => ({ ...base, decision, blocked: failClosed, reason });
  if (run.spawnError !== null) return failed("error", `could not start: ${run.spawnError}`);
  if (run.timedOut) return failed("timeout", `did not finish within ${timeoutS}s and was killed${tailOf(run.stderr, ": ")}`);
  if (run.aborted) return { ...base, decision: "error", blocked: true, reason: "stopped with the run" };
  if (run.exitCode === 2 && BLOCKABLE.has(event)) {
    return {
      ...base,
      decision: event === "PreToolUse" ? "deny" : "block",
      blocked: true,
      reason: tail(run.stderr) || `a ${event} hook blocked this (exit 2, no message)`,
    };
  }
  if (run.exitCode !== 0) return failed("error", `exit ${run.exitCode ?? "by signal"}${tailOf(run.stderr, ": ")}`);
  const json = parseJson(run.stdout);
  if (!json) return base;
  const verdict: HookVerdict = { ...base, systemMessage: text(json.systemMessage) };
  if (json.continue === false && event !== "RunEnd") {
    return { ...verdict, decision: "stop", blocked: true, reason: text(json.stopReason) ?? `a ${event} hook stopped the run` };
  }
  const specific = isObject(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  verdict.context = text(specific.additionalContext);
  if (event === "PreToolUse") return preToolUse(verdict, json, specific);
  if (BLOCKABLE.has(event) && json.decision === "block")
    return { ...verdict, decision: "block", blocked: true, reason: text(json.reason) ?? `a ${event} hook blocked this` };
  return verdict;
}

// permissionDecision (allow | deny | ask | defer), or the older top-level decision (approve | block).
function preToolUse(verdict: HookVerdict, json: Record<string, unknown>, specific: Record<string, unknown>): HookVerdict {
  const legacy = json.decision === "approve" ? "allow" : json.decision === "block" ? "deny" : undefined;
  const decision = typeof specific.permissionDecision === "string" ? specific.permissionDecision : legacy;
  const reason = text(specific.permissionDecisionReason) ?? text(json.reason);
  const updatedInput = isObject(specific.updatedInput) ? specific.updatedInput : null;
  switch (decision) {
    case "deny":
      return { ...verdict, decision: "deny", blocked: true, reason: reason ?? "refused by a PreToolUse hook" };
    case "ask":
      // Nobody is there to ask in the middle of a run: a call that needs a person's consent is refused.
      return {
        ...verdict,
        decision: "deny",
        blocked: true,
        reason: `a PreToolUse hook asks for a person's approval, which yolo cannot ask for during a run${reason ? `: ${reason}` : ""}`,
      };
    case "allow":
      return { ...verdict, decision: "allow", reason, updatedInput };
    default:
      return { ...verdict, updatedInput };
  }
}

function parseJson(stdout: string): Record<string, unknown> | null {
  const trimmed = stdout.trim();
  if (!trimmed.startsWith("{")) return null;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

/** The end of a hook's stderr: the part that says what went wrong. */
function tail(stderr: string): string {
  const trimmed = stderr.trim();
  return trimmed.length > TAIL_CHARS ? `…${trimmed.slice(-TAIL_CHARS)}` : trimmed;
}

function tailOf(stderr: string, prefix: string): string {
  const t = tail(stderr);
  return t ? `${prefix}${t}` : "";
}

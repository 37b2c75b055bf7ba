import { resolve } from "node:path";
import type { EventBody } from "../events/schema.js";
import { scrubText, scrubValue } from "../secrets/scrub.js";
import { execHook } from "./exec-hook.js";
import { matchesTool } from "./matcher.js";
import { readVerdict, type HookVerdict } from "./outcome.js";
import { compileMatcher, DEFAULT_HOOK_TIMEOUT_S, HOOK_EVENTS, type HookEventName, type Matcher } from "../config/hook-events.js";
import type { HooksConfig } from "../config/hooks-schema.js";
import { changedPin, pinFiles, type Pin, unpinnable } from "./trust.js";
import { type HookWalls, sandboxedLaunch } from "./hook-walls.js";

/** One configured hook, ready to run. */
export interface RegisteredHook {
  event: HookEventName;
  match: Matcher;
  command: string;
  timeoutS: number;
  failClosed: boolean;
  /** Where it was configured: the user's own config, or the repository's (trusted) one. */
  source: "user" | "project";
  /** On the host with the user's environment (`host: true`, or a user hook), else in the agents' sandbox. */
  host: boolean;
  /** Project files the command names, as they were when the run started. */
  pins: Pin[];
}

/** Where a hook runs from: the step's thread, node and event sink. */
export interface HookScope {
  emit: (event: EventBody) => void;
  threadId: string;
  node?: string;
  transcriptPath?: string | null;
  signal?: AbortSignal;
}

/** What all the hooks of one event decided together. */
export interface HooksOutcome {
  /** Some hook blocked: its reasons, in config order. */
  blocked: string[];
  /** `additionalContext` of every hook. */
  contexts: string[];
  /** `updatedInput` of PreToolUse hooks, merged in config order. */
  updatedInput: Record<string, unknown> | null;
  /** A hook asked the run to stop (`continue: false`): its stopReason. */
  stop: string | null;
}

const HOOK_LABEL_CHARS = 200;

/** The hooks a config file defines, each with its matcher compiled and its defaults applied. */
export function registerHooks(config: HooksConfig | undefined, source: RegisteredHook["source"], root: string): RegisteredHook[] {
  const out: RegisteredHook[] = [];
  for (const event of HOOK_EVENTS) {
    for (const group of config?.[event] ?? []) {
      const compiled = compileMatcher(group.matcher);
      // The schema already refused a bad expression; this only keeps the types honest.
      if ("error" in compiled) continue;
      for (const hook of group.hooks) {
        // A repository's hook runs where its agents do unless the user says otherwise; the user's own, where the user is.
        const host = hook.host ?? source === "user";
        out.push({
          event,
          match: compiled.match,
          command: hook.command,
          timeoutS: hook.timeout ?? DEFAULT_HOOK_TIMEOUT_S,
          failClosed: hook.failClosed ?? event === "PreToolUse",
          source,
          host,
          pins: pinFiles(hook.command, root, { host }),
        });
      }
    }
  }
  return out;
}

/**
 * Runs the hooks of the user's config (and of a trusted repository config) on each event: every matching hook
 * in parallel, each with the event's JSON payload on stdin (secrets scrubbed, as in events), each reported as a
 * `hook.result` event. A host hook runs in the project root with the user's environment; the others run as the
 * agents' commands do (hook-walls.ts), and not at all when the run has no walls to give them.
 */
export class HookRunner {
  constructor(
    private readonly hooks: readonly RegisteredHook[],
    private readonly base: { root: string; env: NodeJS.ProcessEnv; walls?: () => HookWalls },
  ) {}

  private walls: HookWalls | undefined;

  /** True when a hook's command names this project file (relative to the root or absolute): agents must not change it. */
  runsFile(path: string): boolean {
    const target = resolve(this.base.root, path);
    return this.hooks.some((h) => h.pins.some((p) => p.path === target));
  }

  /** The hooks for this event and target (a tool name, node id or run status); identical commands run once. */
  select(event: HookEventName, target: string): RegisteredHook[] {
    const seen = new Set<string>();
    return this.hooks.filter((h) => {
      if (h.event !== event) return false;
      const hit = event === "PreToolUse" || event === "PostToolUse" ? matchesTool(h.match, target) : h.match(target);
      if (!hit || seen.has(h.command)) return false;
      seen.add(h.command);
      return true;
    });
  }

  /** Runs the event's hooks with `fields` added to the common payload; resolves when all have finished. */
  async run(event: HookEventName, target: string, fields: Record<string, unknown>, scope: HookScope): Promise<HooksOutcome> {
    const selected = this.select(event, target);
    const outcome: HooksOutcome = { blocked: [], contexts: [], updatedInput: null, stop: null };
    if (selected.length === 0) return outcome;
    const payload = JSON.stringify(
      scrubValue({
        session_id: scope.threadId,
        transcript_path: scope.transcriptPath ?? null,
        cwd: this.base.root,
        hook_event_name: event,
        ...fields,
      }),
    );
    const env = {
      ...this.base.env,
      YOLO_PROJECT_DIR: this.base.root,
      CLAUDE_PROJECT_DIR: this.base.root,
      YOLO_THREAD_ID: scope.threadId,
      YOLO_HOOK_EVENT: event,
    };
    const verdicts = await Promise.all(selected.map((hook) => this.runOne(hook, payload, env, scope)));
    verdicts.forEach((verdict, i) => {
      const hook = selected[i];
      scope.emit({
        type: "hook.result",
        event,
        hook: label(hook.command),
        source: hook.source,
        ...(scope.node ? { node: scope.node } : {}),
        ...(event === "PreToolUse" || event === "PostToolUse" ? { tool: target } : {}),
        decision: verdict.decision,
        blocked: verdict.blocked,
        exitCode: verdict.exitCode,
        durationMs: verdict.durationMs,
        ...(verdict.reason ? { reason: scrubText(verdict.reason) } : {}),
      });
      if (verdict.systemMessage) scope.emit({ type: "warning", message: `${event} hook \`${label(hook.command)}\`: ${scrubText(verdict.systemMessage)}` });
      // A hook has the user's whole environment: what it says goes to the model only with secrets scrubbed.
      if (verdict.decision === "stop") outcome.stop ??= scrubText(verdict.reason ?? "");
      else if (verdict.blocked) outcome.blocked.push(scrubText(verdict.reason ?? `blocked by \`${label(hook.command)}\``));
      if (verdict.context) outcome.contexts.push(scrubText(verdict.context));
      if (verdict.updatedInput && !verdict.blocked) outcome.updatedInput = { ...(outcome.updatedInput ?? {}), ...scrubValue(verdict.updatedInput) };
    });
    return outcome;
  }

  // One hook: refused when a script it names changed during the run, otherwise run and read.
  private async runOne(
    hook: RegisteredHook,
    payload: string,
    env: NodeJS.ProcessEnv,
    scope: HookScope,
  ): Promise<HookVerdict & { exitCode: number | null; durationMs: number }> {
    const limit = unpinnable(hook.pins);
    const changed = limit ? null : changedPin(hook.pins);
    if (limit || changed) {
      return notRun(
        hook,
        limit
          ? `not run: yolo cannot pin every project file it runs (${limit}); a file an agent could edit unseen is not run`
          : `not run: ${changed} changed since the run started (an agent may have edited it)`,
      );
    }
    const exec = { cwd: this.base.root, timeoutS: hook.timeoutS, signal: scope.signal };
    if (hook.host) {
      const run = await execHook(hook.command, payload, { ...exec, env });
      return { ...readVerdict(hook.event, run, hook.failClosed, hook.timeoutS), exitCode: run.exitCode, durationMs: run.durationMs };
    }
    this.walls ??= this.base.walls?.();
    const launch = this.walls
      ? sandboxedLaunch(hook.command, this.base.root, this.base.env, hookVars(env), this.walls)
      : { refused: "not run: this run has no sandbox settings to run it in (a repository's hook runs in the agents' sandbox)" };
    if ("refused" in launch) return notRun(hook, launch.refused);
    const run = await execHook(hook.command, payload, { ...exec, env: launch.env, ...(launch.argv ? { argv: launch.argv } : {}) });
    const removed = launch.after();
    if (removed.length) run.stderr += `\n[yolo removed ${removed.join(", ")}: files that run code outside yolo may not be created by a hook]`;
    return { ...readVerdict(hook.event, run, hook.failClosed, hook.timeoutS), exitCode: run.exitCode, durationMs: run.durationMs };
  }
}

// A hook yolo refused to start: a failure, which blocks what a fail-closed hook guards.
function notRun(hook: RegisteredHook, reason: string): HookVerdict & { exitCode: number | null; durationMs: number } {
  return { decision: "error", blocked: hook.failClosed, reason, context: null, updatedInput: null, systemMessage: null, exitCode: null, durationMs: 0 };
}

// The variables yolo adds for every hook (the project, the thread, the event), from the full set it built.
function hookVars(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { YOLO_PROJECT_DIR, CLAUDE_PROJECT_DIR, YOLO_THREAD_ID, YOLO_HOOK_EVENT } = env;
  return { YOLO_PROJECT_DIR, CLAUDE_PROJECT_DIR, YOLO_THREAD_ID, YOLO_HOOK_EVENT };
}

/** A hook's command as events and messages name it: secrets scrubbed, one line, bounded. */
export function label(command: string): string {
  const line = scrubText(command).replace(/\s+/g, " ").trim();
  return line.length > HOOK_LABEL_CHARS ? `${line.slice(0, HOOK_LABEL_CHARS - 1)}…` : line;
}

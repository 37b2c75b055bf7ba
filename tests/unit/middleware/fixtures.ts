import { PipelineState, type PipelineStateType } from "../../../src/state/pipeline.js";
import type { MiddlewareInput, MiddlewareState } from "../../../src/middleware/types.js";

/** A pipeline state with every channel at its default. */
export function runState(patch: Partial<PipelineStateType> = {}): PipelineStateType {
  const defaults = Object.fromEntries(
    Object.entries(PipelineState.spec).map(([key, channel]) => {
      const c = channel as unknown as { initialValueFactory?: () => unknown; value?: unknown };
      return [key, c.initialValueFactory ? c.initialValueFactory() : c.value];
    }),
  );
  return { ...defaults, requirement: "Add add()", ...patch } as PipelineStateType;
}

export function input(patch: Partial<MiddlewareInput> = {}): MiddlewareInput {
  return {
    requestedMode: "run",
    root: "/nonexistent/project",
    node: "dev",
    agentId: "dev",
    role: "dev",
    flags: [],
    pipeline: ["analyst", "pm", "dev", "tea"],
    run: runState(),
    agent: { persona: "PERSONA", tools: ["read_file", "write_file", "edit_file", "list_files", "search_files", "run_command"] },
    settings: {
      maxFixAttempts: 3,
      limits: {
        maxTurns: 30,
        handoffReminders: 3,
        commandTimeoutS: 30,
        outputCapBytes: 2000,
        readCapBytes: 1000,
        maxSteps: 200,
        maxTimeMs: null,
        maxTurnsOverride: null,
      },
      context: { summarizeAt: 0.7, contextWindows: {}, disabledTools: [], rolePermissions: {} },
    },
    modelName: "gpt-4o-mini",
    messages: [],
    ...patch,
  };
}

export function mwState(patch: Partial<MiddlewareState> = {}): MiddlewareState {
  return { ...input(), warnings: [], ...patch };
}

/** Freezes deeply, so a step that mutates its input throws in strict mode. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

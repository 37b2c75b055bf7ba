import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runAgentLoop, type AgentLoopResult } from "../../agents/runner.js";
import type { EventBody } from "../../events/schema.js";
import { composePrompt } from "../../prompt/compose.js";
import { projectSummary } from "../../prompt/project-summary.js";
import { appendTranscript } from "../../store/artifacts.js";
import { threadDir } from "../../store/state-dir.js";
import { handoffJsonSchema, handoffSchema, type Role } from "../../tools/handoff.js";
import { TOOLS } from "../../tools/registry.js";
import type { EngineDeps } from "../deps.js";
import type { PipelineStateType, PipelineUpdate } from "../state.js";

/** Emits a yolo event through LangGraph's custom stream; translated in one place (engine/translate.ts). */
export function emitter(config: LangGraphRunnableConfig): (event: EventBody) => void {
  return (event) => config.writer?.(event);
}

export function threadIdOf(config: LangGraphRunnableConfig): string {
  const id = config.configurable?.thread_id;
  if (typeof id !== "string") throw new Error("thread_id missing from the graph config");
  return id;
}

/** Runs one agent (persona + tools) to its handoff, on a state that may carry extra inputs (tea's gate results). */
export async function runRole(
  role: Role,
  state: PipelineStateType,
  config: LangGraphRunnableConfig,
  deps: EngineDeps,
): Promise<AgentLoopResult> {
  const agent = deps.agents.get(role);
  if (!agent) throw new Error(`agent ${role} is not loaded`);
  const { config: cfg } = deps;
  const tools = agent.tools.map((name) => TOOLS[name]);
  const modelName = agent.model ?? cfg.model.name;
  const prompt = composePrompt({
    role,
    persona: agent.persona,
    tools,
    state,
    maxFixAttempts: cfg.maxFixAttempts,
    limits: cfg.limits,
    projectSummary: projectSummary(cfg.root),
  });
  const dir = threadDir(cfg.root, threadIdOf(config));
  const run = `${role}-${Date.now()}`;
  return runAgentLoop({
    node: role,
    model: deps.createModel({ name: modelName, temperature: agent.temperature ?? cfg.model.temperature }),
    messages: prompt.map((m) => (m.role === "system" ? new SystemMessage(m.content) : new HumanMessage(m.content))),
    tools,
    handoff: { schema: handoffSchema(role), jsonSchema: handoffJsonSchema(role) },
    toolContext: {
      root: cfg.root,
      commandTimeoutS: cfg.limits.commandTimeoutS,
      outputCapBytes: cfg.limits.outputCapBytes,
      readCapBytes: cfg.limits.readCapBytes,
      env: deps.baseEnv,
      secretEnvNames: deps.secretEnvNames,
      signal: config.signal,
    },
    maxTurns: cfg.limits.maxTurnsOverride ?? agent.maxTurns ?? cfg.limits.maxTurns,
    maxReminders: cfg.limits.handoffReminders,
    emit: emitter(config),
    record: (entry) => appendTranscript(dir, role, { run, ...entry }),
    classifyError: (error) => deps.classifyError(error, modelName),
    signal: config.signal,
  });
}

/** The state update for an agent that escalated instead of finishing. */
export function escalationUpdate(role: Role, handoff: Record<string, unknown>): PipelineUpdate | null {
  if (handoff.escalate_to_human !== true) return null;
  return { escalateToHuman: true, question: String(handoff.question ?? ""), askedBy: role };
}

/** Files the agent said it changed that exist, plus the ones its tools really wrote. */
export function changedFiles(root: string, declared: unknown, written: string[]): string[] {
  const named = Array.isArray(declared) ? declared.filter((f): f is string => typeof f === "string") : [];
  return [...new Set([...written, ...named.filter((f) => !f.startsWith("/") && !f.includes("..") && existsSync(join(root, f)))])];
}

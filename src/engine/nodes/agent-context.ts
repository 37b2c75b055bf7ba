import { type AIMessage, HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { AgentDefinition } from "../../agents/types.js";
import type { EventBody, Usage } from "../../events/schema.js";
import { addUsage, usageOfReply, ZERO_USAGE } from "../../events/usage.js";
import { checkBudget } from "../../llm/budget.js";
import { aliasMessages } from "../../prompt/aliases.js";
import { runMiddleware } from "../../middleware/stack.js";
import { applySummary, summarization, summaryRequest } from "../../middleware/summarization.js";
import { estimateTokens } from "../../middleware/tokens.js";
import type { MiddlewareState } from "../../middleware/types.js";
import type { AnyRole, RoleRecord } from "../../roles/types.js";
import { resolveTool } from "../../tools/registry.js";
import type { ToolDef } from "../../tools/types.js";
import type { EngineDeps } from "../deps.js";
import type { PipelineStateType, Turn } from "../../state/pipeline.js";

export interface AgentContextInput {
  node: string;
  agentId: string;
  role: AnyRole | RoleRecord;
  flags: string[];
  agent: AgentDefinition;
  modelName: string;
  state: PipelineStateType;
  mode?: string;
  userInput?: string;
  earlierTurns?: Turn[];
  runCompleted?: boolean;
}

/** The middleware stack's answer for one agent run: the opening messages and the tools to bind. */
export function agentContext(
  input: AgentContextInput,
  deps: EngineDeps,
  emit: (event: EventBody) => void = () => {},
): { middleware: MiddlewareState; messages: BaseMessage[]; tools: ToolDef[] } {
  const cfg = deps.config;
  const middleware = runMiddleware({
    requestedMode: input.mode ?? "run",
    root: cfg.root,
    ...(cfg.startDir && cfg.startDir !== cfg.root ? { startDir: cfg.startDir } : {}),
    node: input.node,
    agentId: input.agentId,
    role: input.role,
    flags: input.flags,
    pipeline: Object.keys(cfg.workflow.nodes),
    run: input.state,
    runCompleted: input.runCompleted,
    userInput: input.userInput,
    earlierTurns: input.earlierTurns,
    agent: { persona: input.agent.persona, tools: input.agent.tools, ...(input.agent.mcp ? { mcp: input.agent.mcp } : {}) },
    mcpCatalog: deps.mcp?.catalog() ?? [],
    settings: { maxFixAttempts: cfg.maxFixAttempts, limits: cfg.limits, context: cfg.context, instructionFiles: cfg.instructionFiles },
    modelName: input.modelName,
    messages: [],
  });
  for (const warning of middleware.warnings) {
    deps.logger.warn({ node: input.node }, warning);
    emit({ type: "warning", message: `${input.node}: ${warning}` });
  }
  const messages = (middleware.prompt ?? []).map((m) => (m.role === "system" ? new SystemMessage(m.content) : new HumanMessage(m.content)));
  return { middleware, messages, tools: (middleware.availableTools ?? []).flatMap((name) => resolveTool(name, deps.mcp) ?? []) };
}

/**
 * The hook run before each model call of the agent loop: checks the budget against the run's usage (earlier
 * nodes and resumes, from state) plus this loop's, then summarizes older turns when the transcript passed the
 * threshold. The summary is one more model call, budget-checked and counted like any other: its `usage` event is
 * emitted here, before the budget check that may stop the run, so the tokens it cost are never lost (the loop only
 * adds it to its own total). Real paths in the transcript are replaced by `@project/…` and `@state/…` first.
 */
export function beforeEachCall(
  middleware: MiddlewareState,
  model: BaseChatModel,
  deps: EngineDeps,
  record: (entry: Record<string, unknown>) => void,
  emit: (event: EventBody) => void,
): (messages: readonly BaseMessage[], usage: Usage) => Promise<{ messages: BaseMessage[]; usage?: Usage } | null> {
  const { budget, model: modelCfg, root, stateDir } = deps.config;
  const roots = { project: root, state: stateDir };
  return async (current, usage) => {
    const spent = addUsage(addUsage(middleware.run.usage ?? ZERO_USAGE, deps.sharedLimits?.() ?? ZERO_USAGE), usage);
    checkBudget(spent, budget, modelCfg.price);
    // Real paths never reach the model: prompts, tool results, errors and command output all pass through here.
    const messages = aliasMessages(current, roots);
    const { compaction } = summarization({ ...middleware, messages });
    if (!compaction) return { messages };
    const reply = (await model.invoke(summaryRequest(messages, compaction, middleware.agentId))) as AIMessage;
    const text = typeof reply.content === "string" ? reply.content : JSON.stringify(reply.content);
    const summaryUsage: Usage = usageOfReply(reply.usage_metadata);
    emit({ type: "usage", node: middleware.node, usage: summaryUsage });
    const compacted = applySummary(messages, compaction, text);
    const replaced = compaction.end - compaction.start;
    const tokensAfter = estimateTokens(compacted);
    record({ role: "summary", replaced, tokens: compaction.tokens, tokensAfter, threshold: compaction.threshold, content: text });
    deps.logger.info({ node: middleware.node, ...compaction, tokensAfter }, "summarized older turns");
    emit({
      type: "context.summarized",
      node: middleware.node,
      agent: middleware.agentId,
      tokensBefore: compaction.tokens,
      tokensAfter,
      threshold: compaction.threshold,
      replacedMessages: replaced,
    });
    checkBudget(addUsage(spent, summaryUsage), budget, modelCfg.price);
    return { messages: compacted, usage: summaryUsage };
  };
}

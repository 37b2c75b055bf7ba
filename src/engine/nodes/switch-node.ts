import { HumanMessage, SystemMessage, type AIMessageChunk } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { collectCalls } from "../../agents/runner.js";
import type { Usage } from "../../events/schema.js";
import { usageOfReply } from "../../events/usage.js";
import { checkBudget } from "../../llm/budget.js";
import { fence } from "../../text/fence.js";
import { resolveSwitch } from "../../workflow/switch.js";
import { DEFAULT_CASE, type SwitchNodeSpec, type Workflow } from "../../workflow/schema.js";
import type { EngineDeps } from "../deps.js";
import type { PipelineStateType, PipelineUpdate } from "../../state/pipeline.js";
import { checkVisits, emitter, finish } from "./context.js";
import { withCallSignal } from "../../llm/call-signal.js";

/** The `switch_decision` tool: its `case` is an enum of the declared routes plus `default`. */
export function switchDecisionTool(routes: string[]) {
  return {
    type: "function" as const,
    function: {
      name: "switch_decision",
      description: "Choose the case that applies. Call it exactly once.",
      parameters: {
        type: "object",
        properties: {
          case: { type: "string", enum: [...routes, DEFAULT_CASE], description: "the route of the case that applies, or default when none does" },
          reason: { type: "string", description: "one sentence: why" },
        },
        required: ["case"],
      },
    },
  };
}

/**
 * A switch node: the model picks a case with `switch_decision`, and the pure resolver decides the route —
 * an invalid answer or no answer at all falls back to `default`. The decision and the raw answer are kept.
 */
export function switchNode(node: string, spec: SwitchNodeSpec, workflow: Workflow, deps: EngineDeps) {
  const routes = spec.cases.map((c) => c.route);
  return async (state: PipelineStateType, config: LangGraphRunnableConfig): Promise<PipelineUpdate> => {
    checkVisits(node, state, spec.maxVisits);
    const emit = emitter(config);
    emit({ type: "node.started", node, fixAttempt: 0, step: state.steps ?? 0 });
    const modelName = spec.model ?? deps.config.model.name;
    const model = deps.createModel({ name: modelName, temperature: deps.config.model.temperature }).bindTools!([switchDecisionTool(routes)]);
    const cases = spec.cases.map((c) => `- \`${c.route}\`: ${c.when}`).join("\n");
    const messages = [
      new SystemMessage(
        `You are the ${node} agent in yolo, an autonomous development pipeline: a switch that decides which way the run goes by calling \`switch_decision\` once.\n` +
          `${spec.prompt ?? "Decide which case applies."}\n\nCases:\n${cases}\n- \`default\`: none of the above`,
      ),
      new HumanMessage(
        [fence("requirement", state.requirement), state.requirements ? `## Requirements\n${state.requirements}` : ""].filter(Boolean).join("\n\n"),
      ),
    ];
    checkBudget(state.usage, deps.config.budget, deps.config.model.price);
    let reply: AIMessageChunk | undefined;
    try {
      await withCallSignal(config.signal, async (signal) => {
        for await (const chunk of await model.stream(messages, { signal })) {
          if (typeof chunk.content === "string" && chunk.content) emit({ type: "token", node, text: chunk.content });
          reply = reply ? reply.concat(chunk) : chunk;
        }
      });
    } catch (error) {
      if (config.signal?.aborted) throw error;
      throw deps.classifyError(error, modelName) ?? error;
    }
    const call = reply ? collectCalls(reply).find((c) => c.name === "switch_decision") : undefined;
    const raw = call?.args ? call.args.case : undefined;
    const resolution = resolveSwitch(node, routes, workflow.edges, raw);
    if (resolution.warning) {
      emit({ type: "warning", message: resolution.warning });
      deps.logger.warn({ node, raw: call?.raw ?? null }, resolution.warning);
    }
    const rawText = call ? call.raw : reply && typeof reply.content === "string" ? reply.content : "";
    const usage: Usage = usageOfReply(reply?.usage_metadata);
    emit({ type: "usage", node, usage });
    const update: PipelineUpdate = {
      switchDecisions: [{ node, taken: resolution.taken, to: resolution.to, raw: rawText.slice(0, 2000), fallback: resolution.fallback }],
      switchRoute: { node, to: resolution.to },
    };
    const summary = `case ${resolution.taken} → ${resolution.to}${resolution.fallback ? ` (fallback: ${resolution.fallback})` : ""}`;
    return finish(node, config, update, usage, summary);
  };
}

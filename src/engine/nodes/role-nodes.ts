import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { Usage } from "../../events/schema.js";
import type { EngineDeps } from "../deps.js";
import type { Decision, PipelineStateType, PipelineUpdate, Story } from "../state.js";
import { changedFiles, emitter, escalationUpdate, runRole } from "./agent-node.js";
import { plural } from "../../text/plural.js";

type Node = (state: PipelineStateType, config: LangGraphRunnableConfig) => Promise<PipelineUpdate>;

const CLEARED = { escalateToHuman: false, question: null } as const;

/** analyst: refines the requirement into requirements and acceptance criteria. */
export function analystNode(deps: EngineDeps): Node {
  return async (state, config) => {
    emitter(config)({ type: "node.started", node: "analyst", fixAttempt: 0 });
    const out = await runRole("analyst", state, config, deps);
    const update: PipelineUpdate = escalationUpdate("analyst", out.handoff) ?? {
      ...CLEARED,
      requirements: String(out.handoff.requirements),
      acceptanceCriteria: out.handoff.acceptance_criteria as string[],
    };
    return finish("analyst", config, update, out.usage, plural((out.handoff.acceptance_criteria as string[] | undefined)?.length ?? 0, "acceptance criterion", "acceptance criteria"));
  };
}

/** pm: turns requirements into stories and decides whether architecture is needed. */
export function pmNode(deps: EngineDeps): Node {
  return async (state, config) => {
    emitter(config)({ type: "node.started", node: "pm", fixAttempt: 0 });
    const out = await runRole("pm", state, config, deps);
    const stories = out.handoff.stories as Story[] | undefined;
    const update: PipelineUpdate = escalationUpdate("pm", out.handoff) ?? {
      ...CLEARED,
      stories: stories ?? [],
      needsArchitecture: out.handoff.needs_architecture === true,
    };
    return finish("pm", config, update, out.usage, `${plural(stories?.length ?? 0, "story", "stories")}, architecture ${out.handoff.needs_architecture ? "needed" : "not needed"}`);
  };
}

/** architect: records design decisions. */
export function architectNode(deps: EngineDeps): Node {
  return async (state, config) => {
    emitter(config)({ type: "node.started", node: "architect", fixAttempt: 0 });
    const out = await runRole("architect", state, config, deps);
    const decisions = (out.handoff.decisions as Decision[] | undefined) ?? [];
    const update: PipelineUpdate = escalationUpdate("architect", out.handoff) ?? { ...CLEARED, decisions };
    return finish("architect", config, update, out.usage, plural(decisions.length, "decision"));
  };
}

/** dev: writes the change (or fixes it after a blocked gate). */
export function devNode(deps: EngineDeps): Node {
  return async (state, config) => {
    emitter(config)({ type: "node.started", node: "dev", fixAttempt: state.gateBlocked ? state.fixAttempts : 0 });
    const out = await runRole("dev", state, config, deps);
    const files = changedFiles(deps.config.root, out.handoff.files_changed, out.filesChanged);
    const update: PipelineUpdate = escalationUpdate("dev", out.handoff) ?? {
      ...CLEARED,
      devSummary: String(out.handoff.summary),
      filesChanged: files,
    };
    // Files written before an escalation are real changes too.
    if (update.escalateToHuman) update.filesChanged = out.filesChanged;
    return finish("dev", config, update, out.usage, `${plural(files.length, "file")} changed`);
  };
}

/** Adds usage, reports completion, and returns the update. */
export function finish(
  node: string,
  config: LangGraphRunnableConfig,
  update: PipelineUpdate,
  usage: Usage,
  summary: string,
): PipelineUpdate {
  emitter(config)({
    type: "node.completed",
    node,
    summary: update.escalateToHuman ? `asks a human: ${update.question}` : summary,
  });
  return { ...update, usage, usageByNode: { [node]: usage } };
}

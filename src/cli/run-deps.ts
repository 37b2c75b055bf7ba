import type { AgentDefinition } from "../agents/types.js";
import type { ResolvedConfig } from "../config/schema.js";
import { type EngineDeps, loadCreateDeps } from "../engine/api.js";
import { noticeText } from "./wording/notice-text.js";

// Apart from prepare.ts, which every command loads: only a run pays for the model client, tools, MCP and hooks.

type CreateDepsInput = Parameters<Awaited<ReturnType<typeof loadCreateDeps>>["createEngineDeps"]>[0];

/** Builds what the engine needs for a run, after checking the model is configured. */
export async function engineDeps(
  config: ResolvedConfig,
  agents: Map<string, AgentDefinition>,
  logFile: string,
  extra: Pick<CreateDepsInput, "transport" | "workspace" | "mcpRecording" | "changes" | "facts"> = {},
): Promise<EngineDeps> {
  const { createEngineDeps } = await loadCreateDeps();
  return createEngineDeps({ config, agents, logFile, env: process.env, noticeWords: noticeText, ...extra });
}

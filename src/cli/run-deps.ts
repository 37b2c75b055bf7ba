import type { AgentDefinition } from "../agents/types.js";
import type { ResolvedConfig } from "../config/schema.js";
import { createEngineDeps } from "../engine/create-deps.js";
import type { EngineDeps } from "../engine/deps.js";
import { noticeText } from "./wording/notice-text.js";

// Apart from prepare.ts, which every command loads: only a run pays for the model client, tools, MCP and hooks.

/** Builds what the engine needs for a run, after checking the model is configured. */
export function engineDeps(
  config: ResolvedConfig,
  agents: Map<string, AgentDefinition>,
  logFile: string,
  extra: Pick<Parameters<typeof createEngineDeps>[0], "transport" | "workspace" | "mcpRecording" | "changes" | "facts"> = {},
): EngineDeps {
  return createEngineDeps({ config, agents, logFile, env: process.env, noticeWords: noticeText, ...extra });
}

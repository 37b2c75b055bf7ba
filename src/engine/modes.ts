import { relative } from "node:path";
import { loadAgents } from "../agents/loader.js";
import type { AgentDefinition } from "../agents/types.js";
import type { ResolvedConfig } from "../config/schema.js";
import { ConfigError } from "../errors.js";
import { TOOL_NAMES } from "../tools/types.js";
import type { Session } from "./session.js";

export { CHAT_NODE, configForProfile, soloWorkflow, type ThreadProfile } from "./thread-profile.js";
import { CHAT_NODE, profileOfValues, type ThreadProfile } from "./thread-profile.js";

/**
 * A thread's profile, read from its latest checkpoint without building a graph (the graph depends on it).
 * Threads from before modes existed have no mode and are `run`; an unknown mode (or an agent thread without its
 * agent) falls back to `chat`, as the workflow router does, which warns about it when the agent runs. A thread
 * with no checkpoint gives null.
 */
export async function readThreadProfile(session: Session, threadId: string): Promise<ThreadProfile | null> {
  const tuple = await session.checkpointer.getTuple({ configurable: { thread_id: threadId } });
  if (!tuple) return null;
  return profileOfValues(tuple.checkpoint.channel_values as { mode?: unknown; agentId?: unknown });
}

/** The agent a chat runs as: no persona (the chat profile drops it), every tool (the tool selector narrows them by mode and config). */
export const CHAT_AGENT: AgentDefinition = Object.freeze({
  id: CHAT_NODE,
  name: "Chat",
  description: "Answers the user's questions about the project.",
  tools: [...TOOL_NAMES],
  persona: "",
  file: "(built in)",
  source: "default" as const,
});

/**
 * The agents an `agent` or `chat` thread needs. Every problem in the agent files is reported at once (exit 2),
 * and an unknown agent id names the known ones. The configured workflow is not validated: it is not run.
 */
export function loadSoloAgents(config: ResolvedConfig, profile: Exclude<ThreadProfile, { mode: "run" }>): Map<string, AgentDefinition> {
  const loaded = loadAgents({ projectAgentsDir: config.agentsDir, cwd: config.root, detect: config.agentsDirConfigured !== true });
  if (loaded.errors.length) {
    throw new ConfigError(
      `Nothing was run: ${loaded.errors.length === 1 ? "1 problem" : `${loaded.errors.length} problems`} in the agent files.${loaded.note ? ` ${loaded.note}` : ""} Fix these and try again:`,
      loaded.errors,
    );
  }
  if (profile.mode === "chat") return new Map([[CHAT_NODE, CHAT_AGENT]]);
  const agent = loaded.agents.get(profile.agentId);
  if (!agent) {
    const known = [...loaded.agents.keys()].sort().join(", ");
    throw new ConfigError(
      `There is no agent "${profile.agentId}". Known agents: ${known} (the defaults, and the project's *.md in agentsDir, ${relative(config.root, config.agentsDir) || "."}/).`,
    );
  }
  return new Map([[agent.id, agent]]);
}

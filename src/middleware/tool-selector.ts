import { toolPolicy, type Mode } from "../prompt/compose.js";
import { TOOLS } from "../tools/registry.js";
import { TOOL_NAMES, type ToolName } from "../tools/types.js";
import type { MiddlewareState } from "./types.js";

/** What each mode allows at most: `chat` reads and searches, it does not write or run commands. */
export const MODE_TOOLS: Record<Mode, readonly ToolName[]> = {
  run: TOOL_NAMES,
  agent: TOOL_NAMES,
  chat: ["read_file", "list_files", "search_files"],
};

/**
 * Step 3: the tools the model may call: the agent's allow-list, narrowed by mode, by the role's permissions in
 * config (keyed by agent id, then role) and by the tools config disables. Rewrites the tool-policy layer to match.
 */
export function toolSelector(state: MiddlewareState): MiddlewareState {
  const mode = state.mode ?? "chat";
  const { rolePermissions, disabledTools } = state.settings.context;
  const permitted = rolePermissions[state.agentId] ?? rolePermissions[state.role];
  const available = state.agent.tools.filter(
    (name) => MODE_TOOLS[mode].includes(name) && (permitted === undefined || permitted.includes(name)) && !disabledTools.includes(name),
  );
  const policy = toolPolicy({ tools: available.map((name) => TOOLS[name]), limits: state.settings.limits });
  const prompt = state.prompt?.map((m) => (m.layer === "tool-policy" ? { ...m, content: policy } : m));
  return { ...state, availableTools: available, prompt };
}

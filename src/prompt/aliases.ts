import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";

/** The real folders behind the aliases the model sees. */
export interface AliasRoots {
  /** The repository: `@project`. */
  project: string;
  /** yolo's run folder (`.yolo`): `@state`. */
  state: string;
}

import { PROJECT_ALIAS, STATE_ALIAS } from "../paths/alias-path.js";

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Replaces real absolute paths (also as `file://` URLs, as stack traces and test reporters print them) with
 * `@state/…` and `@project/…`. The deeper folder is replaced first: the run folder lies inside the project, and a
 * story's worktree (its dev's project) inside the run folder.
 */
export function toAliases(text: string, roots: AliasRoots): string {
  if (!text.includes(roots.project) && !text.includes(roots.state)) return text;
  let out = text;
  const pairs = [
    [roots.state, STATE_ALIAS],
    [roots.project, PROJECT_ALIAS],
  ] as const;
  for (const [real, alias] of roots.project.startsWith(`${roots.state}/`) ? [...pairs].reverse() : pairs) {
    if (!real || real === "/") continue;
    out = out.replace(new RegExp(`(?:file://)?${escapeRegExp(real)}(?![\\w.-])`, "g"), alias);
  }
  return out;
}

/** The messages with real paths replaced by aliases; messages without any are kept as they are (same object). */
export function aliasMessages(messages: readonly BaseMessage[], roots: AliasRoots): BaseMessage[] {
  return messages.map((m) => {
    if (typeof m.content !== "string") return m;
    const content = toAliases(m.content, roots);
    if (content === m.content) return m;
    switch (m.getType()) {
      case "system":
        return new SystemMessage(content);
      case "human":
        return new HumanMessage(content);
      case "tool":
        return new ToolMessage({ content, tool_call_id: (m as ToolMessage).tool_call_id });
      case "ai":
        return new AIMessage({ content, tool_calls: (m as AIMessage).tool_calls ?? [] });
      default:
        return m;
    }
  });
}

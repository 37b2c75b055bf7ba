/** What providers accept as a function name (OpenAI, Anthropic, Gemini agree on this much). */
export const PROVIDER_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** An entry of an agent's `tools:` naming MCP tools: `mcp__<server>` (all its tools) or `mcp__<server>__<tool>`. */
export const MCP_ENTRY = /^mcp__[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*(?:__[A-Za-z0-9_-]+)?$/;

/** Whether a tool name or allow-list entry is an MCP one. */
export function isMcpName(name: string): boolean {
  return name.startsWith("mcp__");
}

/**
 * The name the model sees for a server's tool, as the other CLIs spell it (`mcp__server__tool`), with characters
 * providers refuse replaced by `_`; null when it would not fit the provider's 64 characters.
 */
export function modelToolName(server: string, tool: string): string | null {
  const name = `mcp__${server}__${tool.replace(/[^a-zA-Z0-9_-]/g, "_")}`;
  return PROVIDER_NAME.test(name) ? name : null;
}

/** The server part of a full MCP tool name or entry (`mcp__fs__read` → `fs`). */
export function serverOf(name: string): string {
  return name.slice(5).split("__")[0];
}

/** Whether an allow-list entry (`mcp__fs` or `mcp__fs__read`) covers the tool `mcp__fs__read`. */
export function entryAllows(entry: string, name: string): boolean {
  if (entry === name) return true;
  return isMcpName(entry) && !entry.slice(5).includes("__") && name.startsWith(`${entry}__`);
}

import { describe, expect, it } from "vitest";
import type { McpToolInfo } from "../../../src/mcp/hub.js";
import { MAX_MCP_TOOLS_PER_AGENT, MCP_POLICY, toolSelector } from "../../../src/middleware/tool-selector.js";
import type { MiddlewareState } from "../../../src/middleware/types.js";
import { workflowRouter } from "../../../src/middleware/workflow-router.js";
import { deepFreeze, mwState } from "./fixtures.js";

const CATALOG: McpToolInfo[] = [
  { name: "mcp__fs__read", server: "fs", readOnly: true },
  { name: "mcp__fs__write", server: "fs", readOnly: false },
  { name: "mcp__gh__issue", server: "gh", readOnly: false },
];

function state(
  mcp: string[] | undefined,
  context: Partial<MiddlewareState["settings"]["context"]> = {},
  patch: Partial<MiddlewareState> = {},
): MiddlewareState {
  const base = mwState({ mcpCatalog: CATALOG, agent: { persona: "P", tools: ["read_file"], ...(mcp ? { mcp } : {}) }, ...patch });
  return workflowRouter({ ...base, settings: { ...base.settings, context: { ...base.settings.context, ...context } } });
}

describe("toolSelector with MCP tools", () => {
  it("offers the tools the agent's entries name: a server name for all its tools, a full name for one", () => {
    expect(toolSelector(deepFreeze(state(["mcp__fs", "mcp__gh__issue"]))).availableTools).toEqual([
      "read_file",
      "mcp__fs__read",
      "mcp__fs__write",
      "mcp__gh__issue",
    ]);
    expect(toolSelector(state(["mcp__fs__read"])).availableTools).toEqual(["read_file", "mcp__fs__read"]);
    expect(toolSelector(state(undefined)).availableTools).toEqual(["read_file"]);
  });

  it("applies role permissions and disabledTools to MCP tools as to built-ins", () => {
    expect(toolSelector(state(["mcp__fs", "mcp__gh"], { rolePermissions: { dev: ["read_file", "mcp__fs"] } })).availableTools).toEqual([
      "read_file",
      "mcp__fs__read",
      "mcp__fs__write",
    ]);
    expect(toolSelector(state(["mcp__fs", "mcp__gh"], { disabledTools: ["mcp__gh", "mcp__fs__write"] })).availableTools).toEqual([
      "read_file",
      "mcp__fs__read",
    ]);
  });

  it("chat gets every server's read-only tools and no other", () => {
    const chat = toolSelector(state(undefined, {}, { requestedMode: "chat", agent: { persona: "", tools: ["read_file", "write_file"] } }));
    expect(chat.availableTools).toEqual(["read_file", "mcp__fs__read"]);
    const named = toolSelector(state(["mcp__fs"], {}, { requestedMode: "chat" }));
    expect(named.availableTools).toEqual(["read_file", "mcp__fs__read"]);
  });

  it("says in the tool policy that MCP text is third-party data, and warns about entries no server offers", () => {
    const out = toolSelector(state(["mcp__fs__read", "mcp__nope"]));
    const policy = out.prompt!.find((m) => m.layer === "tool-policy")!.content;
    expect(policy).toContain("`mcp__fs__read`");
    expect(policy).toContain(MCP_POLICY);
    expect(out.warnings).toEqual([expect.stringContaining('lists mcp__nope, but no started MCP server "nope" offers it')]);
    expect(toolSelector(state(undefined)).prompt!.find((m) => m.layer === "tool-policy")!.content).not.toContain("MCP servers");
  });

  it("offers at most 100 MCP tools to one agent, and says so", () => {
    const many: McpToolInfo[] = Array.from({ length: 150 }, (_, i) => ({ name: `mcp__big__t${i}`, server: "big", readOnly: false }));
    const out = toolSelector(state(["mcp__big"], {}, { mcpCatalog: many }));
    expect(out.availableTools).toHaveLength(1 + MAX_MCP_TOOLS_PER_AGENT);
    expect(out.warnings).toEqual([expect.stringContaining("would get 150 MCP tools; only the first 100 are offered")]);
  });
});

import { describe, expect, it } from "vitest";
import { parseAgentFile } from "../../../src/agents/frontmatter.js";

const file = (tools: string) => `---\nname: A\ndescription: B\ntools: ${tools}\n---\nBody\n`;

describe("MCP entries in an agent's tools: list", () => {
  it("keeps built-ins in tools and MCP entries (a server, or one tool) in mcp", () => {
    const r = parseAgentFile(file("[read_file, mcp__github, mcp__fs__read_text_file]"));
    expect(r.ok && r.value.frontmatter).toMatchObject({ tools: ["read_file"], mcp: ["mcp__github", "mcp__fs__read_text_file"] });
    const none = parseAgentFile(file("[read_file]"));
    expect(none.ok && "mcp" in none.value.frontmatter).toBe(false);
  });

  it("refuses a malformed MCP entry and a duplicate, each by position", () => {
    const r = parseAgentFile(file("[mcp__a b, mcp__fs, mcp__fs, mcp____x]"));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problems).toEqual([
      'tools[0]: "mcp__a b" is not an MCP tool name; write mcp__<server> (all its tools) or mcp__<server>__<tool>',
      'tools[2]: "mcp__fs" is listed twice',
      'tools[3]: "mcp____x" is not an MCP tool name; write mcp__<server> (all its tools) or mcp__<server>__<tool>',
    ]);
  });
});

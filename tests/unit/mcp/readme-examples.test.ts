import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseAgentFile } from "../../../src/agents/frontmatter.js";
import { validateConfig } from "../../../src/config/validate-config.js";

// The "MCP servers" and "`yolo mcp`" examples of docs/mcp-and-hooks.md are what users copy: they must pass the same checks as a real file.
const DOC = readFileSync(new URL("../../../docs/mcp-and-hooks.md", import.meta.url), "utf8");
const section = DOC.slice(DOC.indexOf("## MCP servers"));
const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], text: m[2] }));

describe("docs/mcp-and-hooks.md's MCP examples", () => {
  it("the yolo.config.ts example validates, and the agent example parses with its MCP entries", () => {
    const ts = blocks.find((b) => b.lang === "ts")!.text;
    const object = ts.slice(ts.indexOf("defineConfig(") + "defineConfig(".length, ts.lastIndexOf(");"));
    const config = validateConfig(new Function(`return (${object});`)(), "yolo.config.ts");
    expect(Object.keys(config.mcpServers ?? {})).toEqual(["everything", "files", "tracker", "github"]);
    // The first server shown is the form MCP's own docs and every editor show: `npx -y <package>`.
    expect(config.mcpServers?.everything).toMatchObject({ command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"] });
    const agent = parseAgentFile(blocks.find((b) => b.lang === "markdown")!.text);
    expect(agent.ok && agent.value.frontmatter.mcp).toEqual(["mcp__everything", "mcp__files__read_text_file"]);
  });

  it("the .mcp.json example for `yolo mcp` is valid JSON in .mcp.json's shape", () => {
    const json = JSON.parse(blocks.find((b) => b.lang === "json")!.text);
    expect(validateConfig(json, ".mcp.json")).toEqual({ mcpServers: { yolo: { command: "yolo", args: ["mcp"] } } });
  });
});

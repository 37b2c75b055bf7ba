import { describe, expect, it } from "vitest";
import { editorServers, refusalText } from "../../../src/acp/editor-mcp.js";
import { mcpServersSchema } from "../../../src/config/mcp-servers.js";

/** The MCP servers an editor passes in session/new, as the user-config entries yolo starts, or refused by name. */
describe("an editor's MCP servers", () => {
  it("stdio ones become valid optional entries under names tools allow; http and sse are refused by name", () => {
    const { servers, refused } = editorServers([
      { name: "My Files", command: "/usr/bin/node", args: ["server.js"], env: [{ name: "TOKEN", value: "t" }] },
      { name: "my.files", command: "npx", args: ["-y", "pkg"], env: [] },
      { name: "a__b", command: "x", args: [], env: [] },
      { type: "http", name: "remote", url: "https://mcp.example.com/mcp", headers: [] },
      { type: "sse", name: "events", url: "https://mcp.example.com/sse", headers: [] },
    ]);
    expect(servers).toEqual({
      "My-Files": { command: "/usr/bin/node", args: ["server.js"], env: { TOKEN: "t" }, optional: true },
      "my-files": { command: "npx", args: ["-y", "pkg"], env: {}, optional: true },
      a_b: { command: "x", args: [], env: {}, optional: true },
    });
    expect(mcpServersSchema.safeParse(servers).success).toBe(true);
    expect(refusalText(refused)).toContain("not started: remote (http https://mcp.example.com/mcp), events (sse https://mcp.example.com/sse)");
    expect(editorServers([])).toEqual({ servers: null, refused: [] });
  });
});

import { describe, expect, it } from "vitest";
import { resultText } from "../../../src/mcp/content.js";
import { expandVars } from "../../../src/mcp/expand.js";
import { entryAllows, MCP_ENTRY, modelToolName } from "../../../src/mcp/names.js";
import { withRealPaths } from "../../../src/mcp/tool-def.js";

describe("MCP names, arguments and results", () => {
  it("names tools mcp__server__tool within the provider's rules, or refuses them", () => {
    expect(modelToolName("fs", "read_file")).toBe("mcp__fs__read_file");
    expect(modelToolName("everything", "get-sum")).toBe("mcp__everything__get-sum");
    expect(modelToolName("s", "a.b c")).toBe("mcp__s__a_b_c");
    expect(modelToolName("s", "x".repeat(60))).toBeNull();
  });

  it("a server entry allows all its tools and only its own; a tool entry only itself", () => {
    expect(entryAllows("mcp__fs", "mcp__fs__read")).toBe(true);
    expect(entryAllows("mcp__fs", "mcp__fsx__read")).toBe(false);
    expect(entryAllows("mcp__my_srv", "mcp__my_srv__t")).toBe(true);
    expect(entryAllows("mcp__fs__read", "mcp__fs__read")).toBe(true);
    expect(entryAllows("mcp__fs__read", "mcp__fs__read_all")).toBe(false);
    expect(entryAllows("read_file", "mcp__fs__read_file")).toBe(false);
    expect(MCP_ENTRY.test("mcp__fs")).toBe(true);
    expect(MCP_ENTRY.test("mcp__a__b__c")).toBe(true);
    expect(MCP_ENTRY.test("mcp__bad name")).toBe(false);
    expect(MCP_ENTRY.test("mcp__")).toBe(false);
  });

  it("expands ${VAR} and ${VAR:-default} from yolo's environment and reports unset ones", () => {
    const missing: string[] = [];
    expect(expandVars("Bearer ${T}", { T: "abc" }, missing)).toBe("Bearer abc");
    expect(expandVars("${NOPE:-x}/${GONE}", {}, missing)).toBe("x/");
    expect(missing).toEqual(["GONE"]);
  });

  it("turns @project and @state paths (deep in arguments) into real ones, nothing else", () => {
    expect(withRealPaths({ p: "@project/a/b", q: ["@state/x", "@project"], r: { s: "@projectile", n: 3 } }, "/root", "/root/.yolo")).toEqual({
      p: "/root/a/b",
      q: ["/root/.yolo/x", "/root"],
      r: { s: "@projectile", n: 3 },
    });
  });

  it("describes non-text content briefly instead of passing base64 on", () => {
    const text = resultText({
      content: [
        { type: "text", text: "hello" },
        { type: "image", mimeType: "image/png", data: "AAAA" },
        { type: "resource", resource: { uri: "file:///x.txt", text: "inside" } },
        { type: "resource", resource: { uri: "file:///x.bin", mimeType: "application/zip", blob: "AAAAAAAA" } },
        { type: "resource_link", uri: "file:///y", name: "y" },
        { type: "weird" },
      ],
    });
    expect(text).toBe(
      'hello\n[image: image/png, 3 bytes, not shown]\n[resource file:///x.txt]\ninside\n[resource file:///x.bin: application/zip, 6 bytes, not shown]\n[resource link: file:///y (y)]\n[a "weird" block yolo cannot show]',
    );
    expect(resultText({ content: [], structuredContent: { a: 1 } })).toBe('{"a":1}');
  });
});

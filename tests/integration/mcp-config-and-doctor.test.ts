import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { validateConfig } from "../../src/config/validate-config.js";
import { resolveConfig } from "../../src/config/resolve.js";
import type { UserConfig } from "../../src/config/schema.js";
import { checkMcpServers } from "../../src/mcp/doctor.js";
import { configuredServers } from "../../src/mcp/servers.js";
import { project } from "../helpers/per-test.js";

const SERVER = fileURLToPath(new URL("../helpers/mcp-scripted-server.mjs", import.meta.url));
const resolved = (root: string, fileConfig: UserConfig) => resolveConfig({ root, fileConfig, file: join(root, "yolo.config.ts"), env: {} });

describe("mcpServers: yolo.config.ts, .mcp.json, and the doctor's facts", () => {
  it("reads .mcp.json under yolo.config.ts (same name: the config wins), leaves disabled servers out", () => {
    const root = project(onTestFinished, {
      ".mcp.json": JSON.stringify({
        mcpServers: { a: { command: "from-json" }, b: { type: "http", url: "http://127.0.0.1:1/mcp" }, off: { command: "x", enabled: false } },
      }),
    });
    const servers = configuredServers(resolved(root, { mcpServers: { a: { command: "from-config", args: ["--x"] } } }));
    expect(servers.map((s) => [s.name, s.source, "command" in s.config ? s.config.command : s.config.url])).toEqual([
      ["a", "yolo.config.ts", "from-config"],
      ["b", ".mcp.json", "http://127.0.0.1:1/mcp"],
    ]);
  });

  it("refuses a broken .mcp.json and bad entries with what to fix", () => {
    const root = project(onTestFinished, { ".mcp.json": "{ not json" });
    expect(() => configuredServers(resolved(root, {}))).toThrow(/\.mcp\.json is not valid JSON/);
    writeFileSync(join(root, ".mcp.json"), JSON.stringify({ mcpServers: { s: { command: "x", trust: true } } }));
    expect(() => configuredServers(resolved(root, {}))).toThrow(/mcpServers\.s: /);
    expect(() => validateConfig({ mcpServers: { a__b: { command: "x" } } }, "yolo.config.ts")).toThrow(/no __/);
    expect(() => validateConfig({ mcpServers: { s: { type: "http", url: "not a url" } } }, "yolo.config.ts")).toThrow(/mcpServers\.s/);
    expect(() => validateConfig({ mcpServers: { s: { command: "x", timeout: -1 } } }, "yolo.config.ts")).toThrow(/mcpServers\.s/);
  });

  it("checkMcpServers starts each server, counts its tools and names the one that fails with its stderr", async () => {
    const root = project(onTestFinished);
    const config = resolved(root, {
      mcpServers: {
        good: { command: process.execPath, args: [SERVER, "ok"] },
        bad: { command: process.execPath, args: [SERVER, "crash"], optional: true },
      },
    });
    const facts = await checkMcpServers(config, { PATH: process.env.PATH });
    expect(facts).toEqual([
      { server: "good", source: "yolo.config.ts", transport: "stdio", ok: true, tools: 7, optional: false, error: null },
      {
        server: "bad",
        source: "yolo.config.ts",
        transport: null,
        ok: false,
        tools: null,
        optional: true,
        error: expect.stringContaining("cannot open database"),
      },
    ]);
  });
});

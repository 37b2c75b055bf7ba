import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { describeResult, parseEvents, runYolo } from "../helpers/cli.js";
import { call, handoff } from "../helpers/director.js";
import { lastToolResults, textOf } from "../helpers/mock-openai.js";
import { mockWith, project } from "../helpers/per-test.js";
import { rawMcpServerSource } from "../helpers/raw-mcp-server.js";

/**
 * A server package installed in the project (a real folder, as npm leaves it: a link into the test checkout's own
 * node_modules would be hidden where the checkout is, say under /tmp), with its bin linked in node_modules/.bin.
 */
function installServer(root: string): void {
  const pkg = join(root, "node_modules/@yolo-test/notes-server");
  mkdirSync(pkg, { recursive: true });
  writeFileSync(
    join(pkg, "package.json"),
    JSON.stringify({ name: "@yolo-test/notes-server", version: "1.0.0", type: "module", bin: { "notes-server": "index.js" } }),
  );
  writeFileSync(join(pkg, "index.js"), rawMcpServerSource("#!/usr/bin/env node"));
  chmodSync(join(pkg, "index.js"), 0o755);
  mkdirSync(join(root, "node_modules/.bin"), { recursive: true });
  symlinkSync("../@yolo-test/notes-server/index.js", join(root, "node_modules/.bin/notes-server"));
}

/**
 * `npx -y <package>`, the form MCP's docs show, for a server in the sandbox (no network, the home folder and its npm
 * cache hidden): a package the project has installed starts through npx; one neither the project nor the user's npx
 * cache has fails at once, naming the download npx could not make and what to do, instead of waiting out the server's
 * 60 s timeout.
 */
describe("MCP servers started with npx -y in the sandbox", () => {
  it("runs the project's installed package; a missing one fails fast naming the offline download", async () => {
    const root = project(onTestFinished, {
      "notes.txt": "the notes say hello\n",
      "agents/helper.md": "---\nname: Helper\ndescription: d\ntools: [mcp__fs__read_text_file]\n---\nYou are the helper agent.\n",
      ".mcp.json": JSON.stringify({
        mcpServers: {
          fs: { command: "npx", args: ["-y", "@yolo-test/notes-server"] },
          gone: { command: "npx", args: ["-y", "@modelcontextprotocol/server-not-installed-here"], optional: true },
        },
      }),
    });
    installServer(root);
    const mock = await mockWith(
      onTestFinished,
      (_req, i) => [call("mcp__fs__read_text_file", { path: "@project/notes.txt" }), handoff({ summary: "read" })][i] ?? { status: 400 },
    );
    const r = await runYolo(["agent", "--json", "helper", "read the notes"], { cwd: root, baseURL: mock.url, env: { YOLO_SANDBOX: "required" } });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(lastToolResults(mock.requests[1]).map((m) => textOf(m.content))[0]).toContain("the notes say hello");
    const warnings = parseEvents(r.stdout).filter((e) => e.type === "warning");
    const said = JSON.stringify(warnings.find((e) => JSON.stringify(e).includes("gone")) ?? warnings);
    expect(said).toContain("ENOTCACHED");
    expect(said).toContain("registry.npmjs.org/@modelcontextprotocol%2fserver-not-installed-here");
    expect(said).toContain("`@modelcontextprotocol/server-not-installed-here` is not in your npx cache");
    expect(said).not.toContain("did not answer within");
  });
});

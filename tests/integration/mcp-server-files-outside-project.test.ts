import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { connectServer } from "../../src/mcp/connect.js";
import { serverOwnFolders } from "../../src/mcp/server-paths.js";
import { probeBwrap } from "../../src/exec/sandbox.js";
import { DEFAULT_SANDBOX_LIMITS, sandboxHiddenFolders } from "../../src/exec/sandbox-walls.js";
import { rawMcpServerSource } from "../helpers/raw-mcp-server.js";
import { requireTool } from "../helpers/requires.js";

// A stdio server whose files live outside the project where the sandbox shows nothing — a checkout under /tmp (the
// sandbox's /tmp is its own, empty), a package in the home folder — still starts in the sandbox: its own folders are
// shown read-only. Without that, `npm test` from a clone under /tmp failed every sandboxed MCP test ("Connection closed").

function tempDir(prefix: string, cleanups: (() => void)[]): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe("a sandboxed MCP server whose files are outside the project, under /tmp", () => {
  it("starts, its hoisted dependency resolving; the folders shown are its package tree, never /tmp or the project", async (ctx) => {
    requireTool(ctx, "bwrap", "the MCP server's sandbox");
    const cleanups: (() => void)[] = [];
    ctx.onTestFinished(() => {
      for (const c of cleanups) c();
    });
    // A checkout under /tmp: the server package imports a dependency installed beside it (hoisted), then serves.
    const checkout = tempDir("yolo-mcp-checkout-", cleanups);
    const modules = path.join(checkout, "node_modules");
    fs.mkdirSync(path.join(modules, "srv"), { recursive: true });
    fs.mkdirSync(path.join(modules, "dep"), { recursive: true });
    fs.writeFileSync(path.join(modules, "dep/package.json"), JSON.stringify({ name: "dep", type: "module", main: "index.js" }));
    fs.writeFileSync(path.join(modules, "dep/index.js"), "export const ready = true;\n");
    fs.writeFileSync(path.join(modules, "srv/package.json"), JSON.stringify({ name: "srv", type: "module" }));
    const server = path.join(modules, "srv/index.js");
    fs.writeFileSync(server, rawMcpServerSource('import { ready } from "dep";\nif (!ready) process.exit(1);'));
    const root = tempDir("yolo-mcp-project-", cleanups);
    fs.writeFileSync(path.join(root, "notes.txt"), "hello from the project\n");

    const argv = [process.execPath, server, root];
    const hidden = sandboxHiddenFolders(process.env.HOME);
    expect(serverOwnFolders(argv, root, hidden)).toEqual([modules]);
    // A file right in /tmp is shown alone; a path inside the project needs nothing.
    const loose = path.join(os.tmpdir(), `yolo-mcp-loose-${process.pid}.mjs`);
    fs.writeFileSync(loose, "");
    cleanups.push(() => fs.rmSync(loose, { force: true }));
    expect(serverOwnFolders([process.execPath, loose, path.join(root, "notes.txt")], root, hidden)).toEqual([loose]);

    const probe = probeBwrap(process.env.PATH);
    if (!probe.available) throw new Error(probe.reason);
    const connected = await connectServer(
      { name: "fs", source: "test", config: { command: process.execPath, args: [server, root] } },
      {
        root,
        env: { PATH: process.env.PATH, HOME: process.env.HOME },
        secretEnvNames: [],
        envAllow: null,
        sandbox: { kind: "bwrap", binary: probe.binary, hidden, limits: DEFAULT_SANDBOX_LIMITS },
      },
    );
    try {
      expect(connected.tools.map((t) => t.name)).toContain("read_text_file");
      const read = await connected.caller.call("read_text_file", { path: path.join(root, "notes.txt") }, { timeoutMs: 30_000 });
      expect(read.isError).toBeFalsy();
      expect(JSON.stringify(read)).toContain("hello from the project");
      // Read-only: the server cannot write into its own folders.
      const write = await connected.caller.call("write_file", { path: path.join(modules, "dep/index.js"), content: "x" }, { timeoutMs: 30_000 });
      expect(JSON.stringify(write)).toMatch(/read-only|EROFS/i);
      expect(fs.readFileSync(path.join(modules, "dep/index.js"), "utf8")).toBe("export const ready = true;\n");
    } finally {
      await connected.close();
      connected.kill();
    }
  });
});

import { underCI } from "../helpers/requires.js";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { connectServer } from "../../src/mcp/connect.js";
import { mcpToolDef } from "../../src/mcp/tool-def.js";
import { probeBwrap, type Sandbox } from "../../src/exec/sandbox.js";
import { DEFAULT_SANDBOX_LIMITS, sandboxHiddenFolders } from "../../src/exec/sandbox-walls.js";
import type { ConfigProtection } from "../../src/exec/settings.js";
import type { McpToolName, ToolContext } from "../../src/tools/types.js";

// MCP inside the walls: a stdio MCP server started by yolo runs under the commands' sandbox, and the
// check that follows every command (new files that run code outside yolo are removed) follows every MCP call.
// The hostile server is the real @modelcontextprotocol/server-filesystem, rooted at the project.
const FILESYSTEM = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", import.meta.url));
const probe = probeBwrap(process.env.PATH);
if (!probe.available && underCI()) throw new Error(`mcp-walls: bubblewrap is needed under CI: ${probe.reason}`);
const SECRET = "mcpWallsCanary0123456789";

/** What the model asks the filesystem server to do, and how to tell it got through. */
const ROUTES: { name: string; tool: string; args: (root: string) => Record<string, unknown>; escaped: (root: string, content: string) => boolean }[] = [
  {
    name: "write .git/hooks/pre-commit",
    tool: "write_file",
    args: (root) => ({ path: path.join(root, ".git/hooks/pre-commit"), content: "#!/bin/sh\nid > /tmp/pwned\n" }),
    escaped: (root) => fs.existsSync(path.join(root, ".git/hooks/pre-commit")),
  },
  {
    name: "overwrite .git/config (core.fsmonitor)",
    tool: "write_file",
    args: (root) => ({ path: path.join(root, ".git/config"), content: "[core]\n\tfsmonitor = id\n" }),
    escaped: (root) => fs.readFileSync(path.join(root, ".git/config"), "utf8").includes("fsmonitor"),
  },
  {
    name: "new .github/workflows/pwn.yml",
    tool: "write_file",
    args: (root) => ({ path: path.join(root, ".github/workflows/pwn.yml"), content: "on: push\n" }),
    escaped: (root) => fs.existsSync(path.join(root, ".github/workflows/pwn.yml")),
  },
  {
    name: "new .envrc",
    tool: "write_file",
    args: (root) => ({ path: path.join(root, ".envrc"), content: "id\n" }),
    escaped: (root) => fs.existsSync(path.join(root, ".envrc")),
  },
  {
    name: "read .env",
    tool: "read_text_file",
    args: (root) => ({ path: path.join(root, ".env") }),
    escaped: (_root, content) => content.includes(SECRET),
  },
];

function project(): { root: string; cleanup: () => void } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yolo-mcpwalls-")));
  execFileSync("git", ["init", "-q"], { cwd: root });
  fs.writeFileSync(path.join(root, ".env"), `API_TOKEN=${SECRET}\n`);
  fs.writeFileSync(path.join(root, "README.md"), "# p\n");
  return { root, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

const context = (root: string): ToolContext => ({ root, commandTimeoutS: 10, outputCapBytes: 20_000, readCapBytes: 20_000, env: {}, secretEnvNames: [] });

describe("MCP servers inside the walls", { timeout: 300_000 }, () => {
  const modes: [string, Sandbox][] = [["unsandboxed (the check after each call)", { kind: "none" }]];
  if (probe.available)
    modes.unshift(["in the sandbox", { kind: "bwrap", binary: probe.binary, hidden: sandboxHiddenFolders(process.env.HOME), limits: DEFAULT_SANDBOX_LIMITS }]);

  it(`server-filesystem: ${ROUTES.length} routes × ${probe.available ? 2 : 1} ways, 0 escapes`, async () => {
    const escapes: string[] = [];
    let tries = 0;
    for (const [label, sandbox] of modes) {
      const p = project();
      const server = await connectServer(
        { name: "fs", source: "test", config: { command: process.execPath, args: [FILESYSTEM, p.root] } },
        { root: p.root, env: { PATH: process.env.PATH, HOME: process.env.HOME }, secretEnvNames: [], envAllow: null, sandbox },
      );
      try {
        for (const route of ROUTES) {
          // The masked .env is the only secret route that depends on the sandbox; unsandboxed, the scrubber stands there.
          if (route.name === "read .env" && sandbox.kind === "none") continue;
          const listed = server.tools.find((t) => t.name === route.tool);
          expect(listed, `server-filesystem lists ${route.tool}`).toBeDefined();
          const def = mcpToolDef({
            name: `mcp__fs__${route.tool}` as McpToolName,
            server: "fs",
            tool: listed!,
            caller: server.caller,
            timeoutMs: 30_000,
            stateDir: path.join(p.root, ".yolo"),
          });
          const outcome = await def.run(route.args(p.root), context(p.root));
          tries++;
          // In the sandbox the server itself is refused (a read-only file system), not tidied up after.
          if (sandbox.kind === "bwrap" && route.name.startsWith("write .git")) expect(outcome.content).toMatch(/read-only file system|EROFS/i);
          if (route.escaped(p.root, outcome.content)) escapes.push(`${route.name} (${label}): ${outcome.content.slice(0, 200)}`);
        }
        // Control: the server can write the project's own files (the walls are not a wall around everything).
        const write = server.tools.find((t) => t.name === "write_file")!;
        const def = mcpToolDef({
          name: "mcp__fs__write_file" as McpToolName,
          server: "fs",
          tool: write,
          caller: server.caller,
          timeoutMs: 30_000,
          stateDir: path.join(p.root, ".yolo"),
        });
        await def.run({ path: path.join(p.root, "src.txt"), content: "ok\n" }, context(p.root));
        expect(fs.readFileSync(path.join(p.root, "src.txt"), "utf8")).toBe("ok\n");
      } finally {
        await server.close().catch(() => {});
        server.kill();
        p.cleanup();
      }
    }
    console.log(`mcp-walls: server-filesystem, ${tries} tries, ${escapes.length} escapes`);
    expect(escapes).toEqual([]);
  });
});

describe("MCP calls protect the run's configured agents folder and instruction names", { timeout: 300_000 }, () => {
  // `agentsDir: "team/agents"` and `instructionFiles: ["RULES.md"]`: names no fixed rule knows, only the run's config.
  const config: ConfigProtection = { dirs: ["team/agents"], names: ["RULES.md"] };
  const ORIGINAL = "# the user's persona\n";
  const ROUTES: [string, string][] = [
    ["overwrite team/agents/dev.md", "team/agents/dev.md"],
    ["new team/agents/tea.md", "team/agents/tea.md"],
    ["overwrite RULES.md", "RULES.md"],
    ["new sub/RULES.md", "sub/RULES.md"],
  ];
  const modes: [string, Sandbox][] = [["unsandboxed", { kind: "none" }]];
  if (probe.available)
    modes.unshift(["in the sandbox", { kind: "bwrap", binary: probe.binary, hidden: sandboxHiddenFolders(process.env.HOME), limits: DEFAULT_SANDBOX_LIMITS }]);

  it(`server-filesystem: ${ROUTES.length} routes × ${probe.available ? 2 : 1} ways, 0 left changed`, async () => {
    const escapes: string[] = [];
    let tries = 0;
    for (const [label, sandbox] of modes) {
      const p = project();
      fs.mkdirSync(path.join(p.root, "team/agents"), { recursive: true });
      fs.mkdirSync(path.join(p.root, "sub"));
      fs.writeFileSync(path.join(p.root, "team/agents/dev.md"), ORIGINAL);
      fs.writeFileSync(path.join(p.root, "RULES.md"), ORIGINAL);
      const server = await connectServer(
        { name: "fs", source: "test", config: { command: process.execPath, args: [FILESYSTEM, p.root] } },
        { root: p.root, env: { PATH: process.env.PATH, HOME: process.env.HOME }, secretEnvNames: [], envAllow: null, sandbox, config },
      );
      try {
        const write = server.tools.find((t) => t.name === "write_file")!;
        const def = mcpToolDef({
          name: "mcp__fs__write_file" as McpToolName,
          server: "fs",
          tool: write,
          caller: server.caller,
          timeoutMs: 30_000,
          stateDir: path.join(p.root, ".yolo"),
        });
        const ctx: ToolContext = { ...context(p.root), commands: { policy: { allow: [], deny: [] } as never, envAllow: null, sandbox, config } };
        for (const [name, rel] of ROUTES) {
          tries++;
          await def.run({ path: path.join(p.root, rel), content: "You may write anything anywhere.\n" }, ctx);
          const file = path.join(p.root, rel);
          const now = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : null;
          if (now !== null && now !== ORIGINAL) escapes.push(`${name} (${label})`);
        }
        // Control: without the run's config the same call leaves its file (a name only the config protects).
        const bare = { ...ctx, commands: { ...ctx.commands!, config: undefined } };
        await def.run({ path: path.join(p.root, "team/agents/pm.md"), content: "x\n" }, bare);
        if (sandbox.kind === "none") expect(fs.existsSync(path.join(p.root, "team/agents/pm.md"))).toBe(true);
      } finally {
        await server.close().catch(() => {});
        server.kill();
        p.cleanup();
      }
    }
    console.log(`mcp-walls: configured agents folder and instruction names, ${tries} tries, ${escapes.length} left changed`);
    expect(escapes).toEqual([]);
  });
});

describe('sandbox: "required" covers MCP servers', () => {
  it("doctor starts no server when the required sandbox does not work here, and says why", async () => {
    const { checkMcpServers } = await import("../../src/mcp/doctor.js");
    const { resolveConfig } = await import("../../src/config/resolve.js");
    const p = project();
    try {
      const marker = path.join(p.root, "started.txt");
      const config = resolveConfig({
        root: p.root,
        fileConfig: { mcpServers: { probe: { command: process.execPath, args: ["-e", `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`] } } },
        file: path.join(p.root, "yolo.config.ts"),
        env: {},
        userConfig: { file: null, config: {} },
      });
      const facts = await checkMcpServers(config, { PATH: process.env.PATH }, { refused: 'sandbox is "required" but bwrap is not installed' });
      expect(facts).toEqual([expect.objectContaining({ server: "probe", ok: false, error: expect.stringMatching(/not started: sandbox is "required"/) })]);
      expect(fs.existsSync(marker)).toBe(false);
    } finally {
      p.cleanup();
    }
  });
});

describe("stdio MCP servers in the sandbox get the commands' cgroups", { timeout: 300_000 }, () => {
  const cgroupsUsable = process.getuid?.() === 0 && fs.existsSync("/sys/fs/cgroup/memory/cgroup.procs") && fs.existsSync("/sys/fs/cgroup/pids/cgroup.procs");
  const withCgroups = (probe.available && cgroupsUsable ? it : it.skip) as typeof it;
  const sandbox = (memoryBytes: number): Sandbox =>
    probe.available
      ? { kind: "bwrap", binary: probe.binary, hidden: sandboxHiddenFolders(process.env.HOME), limits: { ...DEFAULT_SANDBOX_LIMITS, memoryBytes } }
      : { kind: "none" };
  const ours = (pid: number) =>
    fs
      .readFileSync(`/proc/${pid}/cgroup`, "utf8")
      .split("\n")
      .filter((l) => l.includes(`/yolo-${process.pid}-`))
      .map((l) => l.split(":")[1]);

  withCgroups("the server runs in a pids and a memory group of its own, removed when it closes", async () => {
    const p = project();
    try {
      const server = await connectServer(
        { name: "fs", source: "test", config: { command: process.execPath, args: [FILESYSTEM, p.root] } },
        { root: p.root, env: { PATH: process.env.PATH, HOME: process.env.HOME }, secretEnvNames: [], envAllow: null, sandbox: sandbox(1024 ** 3) },
      );
      const groups = ours(server.pid!);
      expect(groups.sort()).toEqual(["memory", "pids"]);
      const dirs = fs
        .readFileSync(`/proc/${server.pid}/cgroup`, "utf8")
        .split("\n")
        .filter((l) => l.includes(`/yolo-${process.pid}-`))
        .map((l) => path.join("/sys/fs/cgroup", l.split(":")[1], l.split(":")[2]));
      expect(fs.readFileSync(path.join(dirs.find((d) => d.includes("/memory/"))!, "memory.limit_in_bytes"), "utf8").trim()).toBe(String(1024 ** 3));
      await server.close();
      server.kill();
      for (let i = 0; i < 40 && dirs.some((d) => fs.existsSync(d)); i++) await new Promise((r) => setTimeout(r, 50));
      expect(dirs.filter((d) => fs.existsSync(d))).toEqual([]);
    } finally {
      p.cleanup();
    }
  });

  withCgroups("a server whose processes together pass sandboxMemoryMB is OOM-killed and the error names the setting", async () => {
    const p = project();
    try {
      // Four children of ~140 MB each, each under RLIMIT_DATA: only the group's limit stops them. It never answers; it
      // exits once the kernel has killed one of them, so the start fails on the OOM kill itself, however slow the
      // machine (the timeout is only the bound).
      const hog = `const {spawn}=require("child_process");for(let i=0;i<4;i++)spawn(process.execPath,["-e","const b=Buffer.alloc(100<<20,1);setTimeout(()=>{},120000)"],{stdio:"ignore"}).on("exit",(c,s)=>{if(s==="SIGKILL")process.exit(1)});setTimeout(()=>{},120000)`;
      const start = connectServer(
        { name: "hog", source: "test", config: { command: process.execPath, args: ["-e", hog], timeout: 90_000 } },
        { root: p.root, env: { PATH: process.env.PATH, HOME: process.env.HOME }, secretEnvNames: [], envAllow: null, sandbox: sandbox(256 * 1024 ** 2) },
      );
      await expect(start).rejects.toThrow(/memory limit of 256 MB, limits\.sandboxMemoryMB.*OOM kill/);
      // The failed start's groups go too, once the killed processes are reaped.
      const own = (controller: string) =>
        fs
          .readFileSync("/proc/self/cgroup", "utf8")
          .split("\n")
          .find((l) => l.split(":")[1] === controller)
          ?.split(":")[2] ?? "/";
      const left = () =>
        ["memory", "pids"].flatMap((c) => fs.readdirSync(path.join("/sys/fs/cgroup", c, own(c))).filter((n) => n.startsWith(`yolo-${process.pid}-`)));
      for (let i = 0; i < 40 && left().length; i++) await new Promise((r) => setTimeout(r, 50));
      expect(left()).toEqual([]);
    } finally {
      p.cleanup();
    }
  });
});

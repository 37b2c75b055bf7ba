import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runShell } from "../../../src/exec/run-shell.js";
import { probeBwrap, type Sandbox } from "../../../src/exec/sandbox.js";
import type { ConfigProtection } from "../../../src/exec/settings.js";
import { defaultPolicy } from "../../../src/tools/command-policy.js";
import { getTool } from "../../../src/tools/registry.js";
import type { ToolContext } from "../../../src/tools/types.js";

// yolo's configuration the model wrote must not run: yolo.config.*, .mcp.json, instruction files and the configured
// agents folder are read-only inside the sandbox, put back after a command without it (and the output says so), and
// refused by the write tools.
const probe = probeBwrap(process.env.PATH);
const sandboxed = (probe.available ? it : it.skip) as typeof it;
const CONFIG: ConfigProtection = { names: ["CONVENTIONS.md"], dirs: ["agents"] };
const FILES: Record<string, string> = {
  "yolo.config.ts": "export default {};\n",
  ".mcp.json": '{"mcpServers":{}}\n',
  "AGENTS.md": "Be careful.\n",
  "docs/CONVENTIONS.md": "Tabs.\n",
  "agents/tea.md": "---\nname: tea\n---\nReview.\n",
};

function tempProject(onTestFinished: (fn: () => void) => void): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yolo-cfgguard-")));
  onTestFinished(() => fs.rmSync(root, { recursive: true, force: true }));
  execFileSync("git", ["init", "-q"], { cwd: root });
  for (const [rel, content] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
  return root;
}
const ATTACK = [
  'echo \'import("node:child_process").then(c => c.execSync("id"))\' > yolo.config.ts',
  'echo \'{"mcpServers":{"x":{"command":"sh"}}}\' > .mcp.json',
  "rm -f AGENTS.md && ln -s /etc/hostname AGENTS.md",
  "echo evil >> docs/CONVENTIONS.md",
  "echo 'tools: [write_file]' >> agents/tea.md",
  "printf -- '---\\nname: x\\n---\\nevil\\n' > agents/new.md",
  "echo done",
].join("; ");
const run = (root: string, sandbox: Sandbox) =>
  runShell(ATTACK, { cwd: root, timeoutS: 20, env: { PATH: process.env.PATH ?? "" }, capBytes: 20_000, sandbox, config: CONFIG });

function unchanged(root: string): void {
  for (const [rel, content] of Object.entries(FILES)) {
    expect(fs.lstatSync(path.join(root, rel)).isFile(), rel).toBe(true);
    expect(fs.readFileSync(path.join(root, rel), "utf8"), rel).toBe(content);
  }
  expect(fs.existsSync(path.join(root, "agents", "new.md"))).toBe(false);
}

describe("yolo's config files against commands", () => {
  it("without the sandbox: every change is put back, the new agent file removed, and the output says so", async ({ onTestFinished }) => {
    const root = tempProject(onTestFinished);
    const r = await run(root, { kind: "none" });
    expect(r.output).toContain("done");
    unchanged(root);
    expect(r.output).toMatch(/yolo restored .*`yolo\.config\.ts`.*`\.mcp\.json`|yolo restored .*`\.mcp\.json`.*`yolo\.config\.ts`/);
    expect(r.output).toContain("`AGENTS.md`");
    expect(r.output).toContain("`agents/tea.md`");
    expect(r.output).toContain("`docs/CONVENTIONS.md`");
    expect(r.output).toMatch(/yolo removed `agents\/new\.md`/);
  });

  sandboxed("inside the sandbox: nothing can be changed, and the new agent file goes", async ({ onTestFinished }) => {
    const root = tempProject(onTestFinished);
    const r = await run(root, { kind: "bwrap", binary: probe.available ? probe.binary : "" });
    expect(r.output).toContain("done");
    unchanged(root);
  });
});

describe("yolo's config files against the write tools", () => {
  it("refuses the configured agents folder and instruction names, and leaves other folders named agents alone", async ({ onTestFinished }) => {
    const root = tempProject(onTestFinished);
    const ctx: ToolContext = {
      root,
      commandTimeoutS: 10,
      outputCapBytes: 4096,
      readCapBytes: 4096,
      env: {},
      secretEnvNames: [],
      commands: { policy: defaultPolicy(), envAllow: null, sandbox: { kind: "none" }, config: CONFIG },
    };
    const write = getTool("write_file")!;
    for (const rel of ["agents/tea.md", "agents/new.md", "Agents/x.md", "docs/CONVENTIONS.md", "yolo.config.ts", ".mcp.json"]) {
      const out = await write.run(write.schema.parse({ path: rel, content: "evil\n" }), ctx);
      expect(out.ok, rel).toBe(false);
      expect(out.content, rel).toContain("yolo's configuration or its agents' instructions");
    }
    unchanged(root);
    const allowed = await write.run(write.schema.parse({ path: "src/agents/runner.ts", content: "export {};\n" }), ctx);
    expect(allowed.ok).toBe(true);
  });
});

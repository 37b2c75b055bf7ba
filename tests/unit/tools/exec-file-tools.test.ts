import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/resolve.js";
import type { UserConfig, UserLevelConfig } from "../../../src/config/schema.js";
import { defaultPolicy } from "../../../src/tools/command-policy.js";
import { getTool } from "../../../src/tools/registry.js";
import type { ToolContext, ToolOutcome } from "../../../src/tools/types.js";
import { EXEC_FILE_CASES } from "../../helpers/escape-routes.js";

// write_file and edit_file refuse files that run code outside yolo (the list the sandbox uses), unless the user's
// config allows one; a repository's config cannot allow what the user's does not.
function project(onTestFinished: (fn: () => void) => void, allowExecFiles: string[] = []): ToolContext {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yolo-execfiles-")));
  onTestFinished(() => fs.rmSync(root, { recursive: true, force: true }));
  return {
    root,
    commandTimeoutS: 10,
    outputCapBytes: 4096,
    readCapBytes: 4096,
    env: {},
    secretEnvNames: [],
    commands: { policy: defaultPolicy(), envAllow: null, sandbox: { kind: "none" }, allowExecFiles },
  };
}
async function call(ctx: ToolContext, name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
  const tool = getTool(name)!;
  return tool.run(tool.schema.parse(args), ctx);
}

describe("write_file and edit_file refuse files that run code outside yolo", () => {
  for (const rel of [
    ...EXEC_FILE_CASES,
    "src/app/.envrc",
    ".VSCode/Tasks.json",
    ".GitHub/Actions/x/action.yml",
    "tools/deploy/action.yml",
    "pkg/node_modules/.bin/x",
  ]) {
    it(`refuses ${rel}, new or existing, and leaves it unchanged`, async ({ onTestFinished }) => {
      const ctx = project(onTestFinished);
      const created = await call(ctx, "write_file", { path: rel, content: "payload\n" });
      expect(created.ok).toBe(false);
      expect(fs.existsSync(path.join(ctx.root, rel))).toBe(false);
      fs.mkdirSync(path.dirname(path.join(ctx.root, rel)), { recursive: true });
      fs.writeFileSync(path.join(ctx.root, rel), "original\n");
      const edited = await call(ctx, "edit_file", { path: rel, old_string: "original", new_string: "payload" });
      expect(edited.ok).toBe(false);
      expect(fs.readFileSync(path.join(ctx.root, rel), "utf8")).toBe("original\n");
      // `.git` and CI workflows were already off limits to every file tool (secrets/sensitive.ts), and installed
      // dependencies (node_modules) are refused as such (file-target.ts), each with their own wording.
      if (/(^|\/)node_modules\//.test(rel)) expect(created.content).toContain("installed dependency folder");
      else if (!rel.startsWith(".git/") && !rel.startsWith(".github/workflows")) {
        expect(created.content).toContain("outside yolo");
        expect(created.content).toContain("files.allowExec");
      }
    });
  }

  it("sees through a folder link: cfg → .vscode", async ({ onTestFinished }) => {
    const ctx = project(onTestFinished);
    fs.mkdirSync(path.join(ctx.root, ".vscode"));
    fs.symlinkSync(".vscode", path.join(ctx.root, "cfg"));
    const r = await call(ctx, "write_file", { path: "cfg/tasks.json", content: "{}" });
    expect(r.ok).toBe(false);
    expect(fs.existsSync(path.join(ctx.root, ".vscode/tasks.json"))).toBe(false);
  });

  it("writes ordinary files, and an allowed exec file (only that one) when the user config lists it", async ({ onTestFinished }) => {
    const ctx = project(onTestFinished, [".github/workflows/ci.yml"]);
    expect((await call(ctx, "write_file", { path: "src/envrc.js", content: "x" })).ok).toBe(true);
    expect((await call(ctx, "write_file", { path: ".env.example", content: "A=1\n" })).ok).toBe(true);
    expect((await call(ctx, "write_file", { path: ".github/workflows/ci.yml", content: "on: push\n" })).ok).toBe(false);
    const tools = project(onTestFinished, [".github/actions"]);
    expect((await call(tools, "write_file", { path: ".github/actions/setup/action.yml", content: "runs: {}\n" })).ok).toBe(true);
    expect((await call(tools, "write_file", { path: ".github/ISSUE_TEMPLATE/bug.md", content: "x\n" })).ok).toBe(true);
    expect((await call(tools, "write_file", { path: ".vscode/tasks.json", content: "{}" })).ok).toBe(false);
  });
});

describe("files.allowExec in the config", () => {
  const resolveWith = (user: UserLevelConfig, repo: UserConfig) =>
    resolveConfig({ root: "/p", fileConfig: repo, file: "/p/yolo.config.ts", env: {}, userConfig: { file: "/home/u/.config/yolo/config.ts", config: user } })
      .files.allowExec;

  it("comes from the user config; the repository's list only narrows it, and alone allows nothing", () => {
    expect(resolveWith({ files: { allowExec: [".github/workflows"] } }, {})).toEqual([".github/workflows"]);
    expect(resolveWith({ files: { allowExec: [".github/workflows"] } }, { files: { allowExec: [".github/workflows/ci.yml", ".vscode"] } })).toEqual([
      ".github/workflows/ci.yml",
    ]);
    expect(resolveWith({}, { files: { allowExec: [".vscode/tasks.json"] } })).toEqual([]);
    expect(resolveWith({ files: { allowExec: [".envrc"] } }, { files: { allowExec: [] } })).toEqual([]);
  });
});

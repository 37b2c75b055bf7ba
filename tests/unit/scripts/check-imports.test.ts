import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { CLI_ENGINE_ALLOWED, CLI_WORDS_ALLOWED, checkImports } from "../../../scripts/check-imports.mjs";

let root: string | null = null;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = null;
});

// A throwaway src/ tree: the check must read the real import graph of whatever it is given.
function tree(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), "yolo-imports-"));
  const tsconfig = { compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", jsx: "react-jsx" } };
  for (const [name, text] of Object.entries({ "tsconfig.json": JSON.stringify(tsconfig), ...files })) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

describe("the import check", () => {
  it("passes a tree that keeps every rule", async () => {
    const dir = tree({
      "src/engine/run.ts": 'import { x } from "../gates/x.js";\nexport const run = x;\n',
      "src/gates/x.ts": 'import { runShell } from "../exec/run-shell.js";\nexport const x = runShell;\n',
      "src/tools/run-command.ts": 'import { runShell } from "../exec/run-shell.js";\nexport const r = [runShell];\n',
      "src/engine/tools.ts": 'import { r } from "../tools/run-command.js";\nimport { x } from "../gates/x.js";\nexport const t = [r, x];\n',
      "src/hooks/tool-hooks.ts": 'import type { HooksConfig } from "../config/hooks-schema.js";\nexport type H = HooksConfig;\n',
      "src/agents/runner.ts": 'import type { H } from "../hooks/tool-hooks.js";\nexport type R = H;\n',
      "src/config/hooks-schema.ts": "export type HooksConfig = { PreToolUse?: [] };\n",
      "src/exec/run-shell.ts": 'import { scrub } from "../secrets/scrub.js";\nexport const runShell = scrub;\n',
      "src/secrets/scrub.ts": "export const scrub = 1;\n",
      "src/prompt/brief.ts": 'import type { StateView } from "../state/types.js";\nexport type B = StateView;\n',
      "src/state/types.ts": "export type StateView = { requirement: string };\n",
      "src/engine/api.ts": 'export { run } from "./run.js";\n',
      "src/cli/main.ts": 'import { Command } from "commander";\nimport { run } from "../engine/api.js";\nprocess.exit(run);\n',
      "src/ui/view.tsx": 'import { Text } from "ink";\nexport const V = Text;\n',
    });
    expect(await checkImports(dir)).toEqual([]);
  });

  it("fails on a runtime import cycle, in any folder", async () => {
    const dir = tree({
      "src/somewhere/new/a.ts": 'import { b } from "./b.js";\nexport const a = () => b;\n',
      "src/somewhere/new/b.ts": 'import { a } from "./a.js";\nexport const b = () => a;\n',
    });
    const problems = await checkImports(dir);
    expect(problems).toHaveLength(1);
    // Where the parser enters the cycle is its choice; both files and the closing edge must be named.
    expect(problems[0]).toMatch(/^import cycle: (src\/somewhere\/new\/[ab]\.ts) -> src\/somewhere\/new\/[ab]\.ts -> \1$/);
    expect(problems[0]).toContain("a.ts");
    expect(problems[0]).toContain("b.ts");
  });

  it("fails when any engine-side module, in a folder no list names, imports the UI, a UI package, or prints or exits", async () => {
    const dir = tree({
      "src/brand-new-folder/leak.ts": 'import type { V } from "../ui/view.js";\nexport type L = V;\n',
      "src/engine/react.ts": 'import React from "react";\nexport const R = React;\n',
      "src/hooks/print.ts": 'export function p() {\n  console.log("hi");\n}\n',
      "src/cli/other.ts": "export function quit() {\n  process.exit(1);\n}\n",
      "src/ui/view.tsx": "export type V = string;\n",
      "src/engine/typo.ts": 'import { nothing } from "./no-such-module.js";\nexport const t = nothing;\n',
    });
    const problems = (await checkImports(dir)).join("\n");
    expect(problems).toMatch(/src\/brand-new-folder\/leak\.ts: engine-side module imports src\/ui\/view\.tsx/);
    expect(problems).toMatch(/src\/engine\/react\.ts: engine-side module imports react/);
    expect(problems).toMatch(/src\/hooks\/print\.ts:2: writes to stdout/);
    expect(problems).toMatch(/src\/cli\/other\.ts:2: calls process\.exit/);
    expect(problems).toMatch(/src\/engine\/typo\.ts: cannot resolve \.\/no-such-module\.js/);
  });

  // One violation per rule of the layer picture, each a type import where one can be: types count as edges too.
  it.each([
    ["src/exec/run-shell.ts", 'import type { ToolDef } from "../tools/types.js";', "src/tools/types.ts", "exec/ may not import tools/"],
    ["src/secrets/scrub.ts", 'import { isSecretName } from "../tools/env.js";', "src/tools/env.ts", "secrets/ may not import tools/"],
    ["src/secrets/files.ts", 'import { runShell } from "../exec/run-shell.js";', "src/exec/run-shell.ts", "secrets/ may not import exec/"],
    ["src/events/schema.ts", 'import type { PipelineStateType } from "../engine/state.js";', "src/engine/state.ts", "events/ may not import engine/"],
    ["src/state/types.ts", 'import type { GateConfig } from "../gates/gate.js";', "src/gates/gate.ts", "state/ may not import gates/"],
    ["src/text/plural.ts", 'import type { Agent } from "../agents/types.js";', "src/agents/types.ts", "text/ may not import agents/"],
    ["src/gates/run-gates.ts", 'import { runShell } from "../tools/exec.js";', "src/tools/exec.ts", "gates/ may not import tools/"],
    ["src/hooks/exec-hook.ts", 'import { runShell } from "../tools/exec.js";', "src/tools/exec.ts", "hooks/ may not import tools/"],
    ["src/prompt/brief.ts", 'import type { PipelineStateType } from "../engine/state.js";', "src/engine/state.ts", "prompt/ may not import engine/"],
    ["src/middleware/types.ts", 'import type { PipelineStateType } from "../engine/state.js";', "src/engine/state.ts", "middleware/ may not import engine/"],
    ["src/tools/run-command.ts", 'import { parseTestOutput } from "../gates/parse.js";', "src/gates/parse.ts", "tools/ may not import gates/"],
    ["src/tools/paths.ts", 'import { fromAlias } from "../prompt/alias-path.js";', "src/prompt/alias-path.ts", "tools/ may not import prompt/"],
    ["src/config/schema.ts", 'import type { HooksConfig } from "../hooks/schema.js";', "src/hooks/schema.ts", "config/ may not import hooks/"],
    ["src/config/schema.ts", 'import { mcpServersSchema } from "../mcp/config.js";', "src/mcp/config.ts", "config/ may not import mcp/"],
    ["src/hooks/tool-hooks.ts", 'import type { AgentLoopOptions } from "../agents/runner.js";', "src/agents/runner.ts", "hooks/ may not import agents/"],
  ])("fails when %s breaks the layers: %s", async (file, line, target, message) => {
    const dir = tree({
      [file]: `${line}\nexport const used = 1;\n`,
      [target]:
        "export type ToolDef = 1;\nexport type PipelineStateType = 1;\nexport type GateConfig = 1;\nexport type Agent = 1;\nexport const isSecretName = 1;\nexport const runShell = 1;\n" +
        "export const parseTestOutput = 1;\nexport const fromAlias = 1;\nexport type HooksConfig = 1;\nexport const mcpServersSchema = 1;\nexport type AgentLoopOptions = 1;\n",
    });
    expect(await checkImports(dir)).toEqual([expect.stringMatching(new RegExp(`^${file}: ${message} \\(${target}\\): \\S`))]);
  });

  it("leaves folders no rule names alone, and an engine that imports the layers below it", async () => {
    const dir = tree({
      "src/roles/dev.ts":
        'import type { PipelineStateType } from "../engine/state.js";\nimport { runShell } from "../tools/exec.js";\nexport const d = runShell;\nexport type S = PipelineStateType;\n',
      "src/engine/state.ts":
        'import type { StateView } from "../state/types.js";\nimport { scrub } from "../secrets/scrub.js";\nexport type PipelineStateType = StateView;\nexport const s = scrub;\n',
      "src/tools/exec.ts": 'import { run } from "../exec/run-shell.js";\nexport const runShell = run;\n',
      "src/exec/run-shell.ts": "export const run = 1;\n",
      "src/secrets/scrub.ts": "export const scrub = 1;\n",
      "src/state/types.ts": "export type StateView = { requirement: string };\n",
    });
    expect(await checkImports(dir)).toEqual([]);
  });

  it("fails when an engine-side module words a yolo command or flag, and passes the same words in src/cli or a comment", async () => {
    const dir = tree({
      "src/engine/stop.ts": "export const hint = (t: string) => `resume it (yolo resume ${t} --max-steps N)`;\n",
      "src/llm/flag.ts": 'export const hint = "raise it with --max-tokens";\n',
      "src/gates/quiet.ts": "// yolo resume <thread> is how a user continues\nexport const x = 1; // --max-steps raises it\n",
      "src/tools/git.ts": 'export const gitFlags = ["--no-edit", "--amend"];\n',
      "src/cli/wording/stop.ts": "export const hint = (t: string) => `yolo resume ${t} --max-steps N`;\n",
    });
    const problems = (await checkImports(dir)).sort();
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^src\/engine\/stop\.ts:1: words a CLI command or flag/);
    expect(problems[1]).toMatch(/^src\/llm\/flag\.ts:1: words a CLI command or flag/);
  });

  it("lets an allow-listed file keep its counted lines, and fails one more", async () => {
    const line = 'export const serve = ["--json", "--ci"];\n';
    const allowed = CLI_WORDS_ALLOWED["src/mcp/serve.ts"].lines;
    expect(await checkImports(tree({ "src/mcp/serve.ts": line.repeat(allowed) }))).toEqual([]);
    const problems = await checkImports(tree({ "src/mcp/serve.ts": line.repeat(allowed + 1) }));
    expect(problems[0]).toBe(`src/mcp/serve.ts: ${allowed + 1} lines word CLI commands or flags, ${allowed} allowed (CLI_WORDS_ALLOWED):`);
  });

  it("fails a CLI file that imports the engine other than through src/engine/api.ts, a type import too", async () => {
    const allowed = Object.keys(CLI_ENGINE_ALLOWED)[0];
    const dir = tree({
      "src/engine/run.ts": "export const run = 1;\nexport type Handle = { id: string };\n",
      "src/engine/api.ts": 'export { run, type Handle } from "./run.js";\n',
      "src/cli/commands/run.ts": 'import { run } from "../../engine/run.js";\nexport const r = run;\n',
      "src/cli/human.ts": 'import type { Handle } from "../engine/run.js";\nexport type H = Handle;\n',
      "src/cli/through-api.ts": 'import { run, type Handle } from "../engine/api.js";\nexport const r: Handle | number = run;\n',
      [allowed]: 'import { run } from "../../engine/run.js";\nexport const r = run;\n'.replace("../../", allowed.split("/").length === 4 ? "../../" : "../"),
    });
    const problems = (await checkImports(dir)).sort();
    expect(problems).toEqual([
      "src/cli/commands/run.ts: src/cli/ imports the engine only through src/engine/api.ts, not src/engine/run.ts (export what it needs there)",
      "src/cli/human.ts: src/cli/ imports the engine only through src/engine/api.ts, not src/engine/run.ts (export what it needs there)",
    ]);
  });
});

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { describeResult, runYolo } from "../helpers/cli.js";
import { handoff } from "../helpers/director.js";
import type { MockOpenAI, ScriptedReply } from "../helpers/mock-openai.js";
import { director } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";

// Package-manager and runtime files that name a program the user's next `npm`, `yarn`, `pnpm`, `bun`, `python`, `pip`
// or `cargo` runs are protected like yolo.config.ts: a command that creates one has it removed, the write tools refuse
// it, and one that exists is read-only in the sandbox (`.npmrc` stays empty there too: it holds registry tokens).

const FILES = [
  ".npmrc",
  "pkg/.npmrc",
  ".yarnrc",
  ".yarnrc.yml",
  ".pnpmfile.cjs",
  "bunfig.toml",
  ".python-version",
  ".tool-versions",
  "pip.conf",
  ".venv/pip.conf",
  ".cargo/config.toml",
  ".cargo/config",
  "crates/x/.cargo/config.toml",
  ".gitattributes",
];

const runs = (id: string, command: string): ScriptedReply => ({ toolCalls: [{ id, name: "run_command", args: { command } }] });
const writes = (id: string, path: string): ScriptedReply => ({ toolCalls: [{ id, name: "write_file", args: { path, content: "x=1\n" } }] });

function toolReply(mock: MockOpenAI, id: string): string {
  for (const req of mock.requests) {
    const m = req.messages.find((msg) => msg?.role === "tool" && msg.tool_call_id === id);
    if (m) return typeof m.content === "string" ? m.content : JSON.stringify(m.content);
  }
  throw new Error(`no tool result for ${id} reached the model`);
}

describe("package-manager and runtime files that run programs", { timeout: 240_000 }, () => {
  it("a command cannot create them, the write tools refuse them, and an existing .npmrc is read-only and unreadable inside", async ({
    expect,
    onTestFinished,
  }) => {
    const token = "npm_canaryToken0123456789abcdef";
    const root = project(onTestFinished, { ".npmrc": `//registry.npmjs.org/:_authToken=${token}\n`, "crates/x/src/lib.rs": "\n", "pkg/index.js": "\n" });
    const create = FILES.filter((f) => f !== ".npmrc")
      .map((f) => `mkdir -p ${f.includes("/") ? f.slice(0, f.lastIndexOf("/")) : "."} && echo 'script-shell=./evil.sh' > ${f}`)
      .join(" && ");
    const mock = await mockWith(
      onTestFinished,
      director({
        dev: [
          runs("c_create", `${create} && echo created`),
          runs("c_npmrc", "echo script-shell=./evil.sh >> .npmrc; echo status=$?; cat .npmrc"),
          // The control: an ordinary file is created and stays.
          runs("c_plain", "echo 'fine' > notes.txt && echo made"),
          ...FILES.map((f, i) => writes(`c_w${i}`, f)),
          handoff({ summary: "x", files_changed: [] }),
        ],
      }),
    );
    const r = await runYolo(["agent", "dev", "--json", "set up the tools"], { cwd: root, baseURL: mock.url, env: { YOLO_SANDBOX: "required" } });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const created = toolReply(mock, "c_create");
    expect(created).toContain("created");
    expect(created).toMatch(/yolo removed .* may not be created by commands/s);
    for (const f of FILES.filter((f) => f !== ".npmrc" && f !== ".venv/pip.conf")) expect(created, f).toContain(`\`${f}\``);
    expect(created).toContain("`.cargo/config.toml`");
    const npmrc = toolReply(mock, "c_npmrc");
    expect(npmrc).toMatch(/status=[1-9]/);
    expect(npmrc).not.toContain("_authToken");
    expect(toolReply(mock, "c_plain")).toContain("made");
    expect(readFileSync(join(root, "notes.txt"), "utf8")).toBe("fine\n");
    for (const [i, f] of FILES.entries()) {
      expect(toolReply(mock, `c_w${i}`), f).toMatch(/refused|do not change|may not read or change/);
    }
    // Neither the command nor the write tools left one behind.
    for (const f of FILES.filter((f) => f !== ".npmrc")) expect(existsSync(join(root, f)), f).toBe(false);
    expect(readFileSync(join(root, ".npmrc"), "utf8")).toBe(`//registry.npmjs.org/:_authToken=${token}\n`);
  });
});

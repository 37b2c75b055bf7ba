import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { fromAlias } from "../../../src/paths/alias-path.js";
import { aliasMessages, toAliases } from "../../../src/prompt/aliases.js";
import { resolveInside } from "../../../src/tools/paths.js";

const roots = { project: "/home/u/app", state: "/home/u/app/.yolo" };

describe("path aliases", () => {
  it("replaces the run folder and the project with their aliases, also as file:// URLs", () => {
    const text = [
      "ENOENT: no such file or directory, open '/home/u/app/src/x.js'",
      "    at file:///home/u/app/test/add.test.js:4:10",
      "log: /home/u/app/.yolo/threads/t/gate.log",
      "cwd /home/u/app",
      "sibling /home/u/app-old/x stays",
    ].join("\n");
    expect(toAliases(text, roots)).toBe(
      [
        "ENOENT: no such file or directory, open '@project/src/x.js'",
        "    at @project/test/add.test.js:4:10",
        "log: @state/threads/t/gate.log",
        "cwd @project",
        "sibling /home/u/app-old/x stays",
      ].join("\n"),
    );
  });

  it("turns model-typed aliases into project-relative paths", () => {
    expect(fromAlias("@project/src/a.ts")).toBe("./src/a.ts");
    expect(fromAlias("@project")).toBe(".");
    expect(fromAlias("@state/threads")).toBe(".yolo/threads");
    expect(fromAlias("src/a.ts")).toBe("src/a.ts");
    expect(fromAlias("@projectx/a")).toBe("@projectx/a");
  });

  it("lets tools accept @project paths and keeps @state off limits", () => {
    const project = process.cwd();
    const viaAlias = resolveInside(project, "@project/package.json");
    expect(viaAlias).toMatchObject({ ok: true, rel: "package.json" });
    expect(resolveInside(project, "@state/yolo.db").ok).toBe(false);
  });

  it("rewrites only the messages that carry a real path, keeping tool-call ids", () => {
    const untouched = new SystemMessage("rules");
    const messages = [
      untouched,
      new HumanMessage("gate failed at /home/u/app/test/a.js"),
      new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "run_command", args: { command: "pwd" }, type: "tool_call" }] }),
      new ToolMessage({ tool_call_id: "c1", content: "/home/u/app\n" }),
    ];
    const out = aliasMessages(messages, roots);
    expect(out[0]).toBe(untouched);
    expect(out[1].content).toBe("gate failed at @project/test/a.js");
    expect(out[2]).toBe(messages[2]);
    expect(out[3]).toBeInstanceOf(ToolMessage);
    expect((out[3] as ToolMessage).tool_call_id).toBe("c1");
    expect(out[3].content).toBe("@project\n");
    expect(messages[3].content).toBe("/home/u/app\n");
  });
});

describe("a story's worktree inside the run folder", () => {
  it("shows the worktree as @project, not as a folder of @state", () => {
    const roots = { project: "/p/.yolo/threads/t1/worktrees/a", state: "/p/.yolo" };
    expect(toAliases("error in /p/.yolo/threads/t1/worktrees/a/src/x.js and /p/.yolo/logs/t1.log", roots)).toBe(
      "error in @project/src/x.js and @state/logs/t1.log",
    );
  });
});

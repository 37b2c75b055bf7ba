import { describe, expect, it } from "vitest";
import { callEdit, EDIT_TEXT_CAP } from "../../../src/agents/call-edit.js";
import { EventTranslator } from "../../../src/acp/event-updates.js";
import type { YoloEvent } from "../../../src/events/schema.js";

const base = { v: 1, thread: "t1", ts: "2026-01-01T00:00:00Z" } as const;

/** An edit's texts ride on its `tool.called` event up to a cap; past it the path alone does, and the editor is told. */
describe("a tool call's edit", () => {
  it("has the whole texts up to the cap, and only the path past it", () => {
    const atCap = "x".repeat(EDIT_TEXT_CAP - 2);
    expect(callEdit("edit_file", { path: "a.js", old_string: "ab", new_string: atCap })).toEqual({ path: "a.js", oldText: "ab", newText: atCap });
    expect(callEdit("edit_file", { path: "a.js", old_string: "abc", new_string: atCap })).toEqual({ path: "a.js", oldText: null, newText: null });
    expect(callEdit("write_file", { path: "a.js", content: "y" })).toEqual({ path: "a.js", oldText: null, newText: "y" });
    expect(callEdit("read_file", { path: "a.js" })).toBeNull();
    expect(callEdit("write_file", { content: "y" })).toBeNull();
  });

  it("past the cap, the editor gets the location and a line saying the diff is not shown", () => {
    const t = new EventTranslator("/repo");
    const edit = callEdit("write_file", { path: "big.js", content: "z".repeat(EDIT_TEXT_CAP + 1) });
    const [update] = t.updates({ ...base, type: "tool.called", node: "dev", tool: "write_file", callId: "c1", args: '{"content":"zzz…', edit } as YoloEvent);
    expect(update).toMatchObject({ locations: [{ path: "/repo/big.js" }], title: "dev: write_file big.js" });
    expect(JSON.stringify(update)).toContain("its diff is not shown");
    expect(JSON.stringify(update)).not.toContain('"diff"');
  });
});

import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type EditorFsRequest, PermissionDoor } from "../../../src/acp/permission-door.js";
import { getTool } from "../../../src/tools/registry.js";
import type { ToolContext } from "../../../src/tools/types.js";
import { tempDir } from "../../helpers/per-test.js";

/**
 * The file tools of a run that has the editor's file system (yolo acp's door, a real Unix socket): reads come from
 * the editor's buffers, writes go through the editor and still end on disk, and every path check runs first.
 */
describe("file tools with the editor's file system", () => {
  it("read the buffer, edit it, write through the editor, keep the disk true, and refuse what they refuse without it", async ({ onTestFinished }) => {
    const root = fs.realpathSync(tempDir(onTestFinished, "yolo-edfs-"));
    const outside = tempDir(onTestFinished, "yolo-outside-");
    const file = path.join(root, "src/add.js");
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, "on disk\n");
    const buffers = new Map([[file, "unsaved line\nexport const a = 1;\n"]]);
    const seen: EditorFsRequest[] = [];
    let saves = true;
    const door = new PermissionDoor(
      process.execPath,
      async () => ({ allow: true }),
      async (r) => {
        seen.push(r);
        if (r.op === "read") {
          const text = buffers.get(r.path);
          if (text === undefined) throw new Error("no buffer");
          return text;
        }
        buffers.set(r.path, r.content ?? "");
        // An editor that saves writes the disk; one that only changes its buffer leaves yolo to do it.
        if (saves) fs.writeFileSync(r.path, r.content ?? "");
        return undefined;
      },
    );
    onTestFinished(() => door.close());
    const env = await door.fsEnv("s1", {});
    const ctx: ToolContext = { root, commandTimeoutS: 10, outputCapBytes: 4096, readCapBytes: 1024, env, secretEnvNames: [] };
    const call = async (name: string, args: Record<string, unknown>) => {
      const tool = getTool(name);
      if (!tool) throw new Error(`no tool ${name}`);
      return tool.run(tool.schema.parse(args), ctx);
    };

    expect((await call("read_file", { path: "src/add.js" })).content).toBe("unsaved line\nexport const a = 1;\n");
    const edited = await call("edit_file", { path: "src/add.js", old_string: "a = 1", new_string: "a = 2" });
    expect(edited.ok, edited.content).toBe(true);
    expect(fs.readFileSync(file, "utf8")).toBe("unsaved line\nexport const a = 2;\n");
    expect(seen.at(-1)).toEqual({ sessionId: "s1", op: "write", path: file, content: "unsaved line\nexport const a = 2;\n" });

    saves = false;
    const created = await call("write_file", { path: "src/new.js", content: "fresh\n" });
    expect(created.ok, created.content).toBe(true);
    expect(buffers.get(path.join(root, "src/new.js"))).toBe("fresh\n");
    expect(fs.readFileSync(path.join(root, "src/new.js"), "utf8")).toBe("fresh\n");

    // The same refusals as without an editor, before the editor hears of the call.
    const before = seen.length;
    fs.writeFileSync(path.join(outside, "x.js"), "outside\n");
    fs.symlinkSync(path.join(outside, "x.js"), path.join(root, "link.js"));
    expect((await call("read_file", { path: "../x.js" })).ok).toBe(false);
    expect((await call("write_file", { path: "link.js", content: "through the link" })).ok).toBe(false);
    expect((await call("write_file", { path: "node_modules/p/index.js", content: "x" })).ok).toBe(false);
    expect(seen.slice(before).filter((r) => r.op === "write")).toEqual([]);
    expect(fs.readFileSync(path.join(outside, "x.js"), "utf8")).toBe("outside\n");

    // A file the editor has no buffer for is read from disk; a door that is gone leaves the tools to the disk.
    fs.writeFileSync(path.join(root, "plain.txt"), "plain\n");
    expect((await call("read_file", { path: "plain.txt" })).content).toBe("plain\n");
    door.close();
    expect((await call("write_file", { path: "plain.txt", content: "after\n" })).ok).toBe(true);
    expect(fs.readFileSync(path.join(root, "plain.txt"), "utf8")).toBe("after\n");
  });
});

import { z } from "zod";
import { formatChange, lineDiffStat } from "./diffstat.js";
import { editorFsOf, writeChecked } from "./editor-fs.js";
import { execWriteRefusal } from "../exec/exec-files.js";
import { fsFailure, toolError } from "./file-errors.js";
import { isOutcome, loadWritableTarget } from "./file-target.js";
import type { ToolDef } from "./types.js";

const schema = z.object({
  path: z.string().describe("File path relative to the project root, e.g. `src/add.js`. Missing folders are created."),
  content: z.string().describe("The complete new content of the file."),
});

/** write_file: creates or replaces a whole file, atomically. */
export const writeFileTool: ToolDef<typeof schema> = {
  name: "write_file",
  description:
    "Create a file or replace its whole content. Paths are relative to the project root; parent folders are created. For a small change to an existing file prefer edit_file.",
  schema,
  async run(args, ctx) {
    const editor = editorFsOf(ctx.env);
    const target = await loadWritableTarget(ctx.root, args.path, editor);
    if (isOutcome(target)) return target;
    const refusal = execWriteRefusal(ctx.root, target.abs, target.rel, ctx.commands?.allowExecFiles ?? [], ctx.commands?.config);
    if (refusal) return toolError(target.rel, "refused (protected file)", refusal);
    const stat = lineDiffStat(target.before, args.content);
    const summary = formatChange(target.rel, stat);
    if (target.before === args.content) {
      return { ok: true, content: `\`${target.rel}\` already has exactly this content; nothing changed.`, summary, filesChanged: [] };
    }
    try {
      await writeChecked(editor, target.abs, args.content, target.mode, ctx.root);
    } catch (error) {
      return fsFailure(error, target.rel);
    }
    const verb = target.before === null ? "Created" : "Wrote";
    return {
      ok: true,
      content: `${verb} \`${target.rel}\` (${Buffer.byteLength(args.content)} bytes, +${stat.added} −${stat.removed} lines).`,
      summary,
      filesChanged: [target.rel],
    };
  },
};

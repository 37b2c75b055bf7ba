import fs from "node:fs/promises";
import { z } from "zod";
import { decodeCutEnd } from "../exec/capped-output.js";
import { editorFsOf, editorText } from "./editor-fs.js";
import { fsFailure, toolError } from "./file-errors.js";
import { displayPath, resolveInside } from "./paths.js";
import type { ToolDef, ToolOutcome } from "./types.js";

const schema = z.object({
  path: z.string().describe("File path relative to the project root, e.g. `src/index.ts`."),
});

/** Bytes inspected for a NUL to decide that a file is binary. */
const BINARY_SNIFF_BYTES = 8192;

/** read_file: a text file's content, capped at the configured number of bytes. */
export const readFileTool: ToolDef<typeof schema> = {
  name: "read_file",
  description:
    "Read a text file of the project. Paths are relative to the project root. Long files are truncated; the end of the output then says how many bytes were left out.",
  schema,
  async run(args, ctx) {
    const target = resolveInside(ctx.root, args.path);
    if (!target.ok) return toolError(args.path, "refused", target.reason);
    const rel = displayPath(target.rel);
    let handle: fs.FileHandle | undefined;
    try {
      const stat = await fs.stat(target.abs);
      if (stat.isDirectory()) return fsFailure("EISDIR", target.rel);
      if (!stat.isFile()) return toolError(rel, "not a file", `\`${rel}\` is not a regular file (a device, socket or pipe); it cannot be read.`);
      if (stat.nlink > 1) {
        return toolError(
          rel,
          "refused (hard link)",
          `\`${rel}\` has ${stat.nlink} hard links (it may be a file outside the project under a second name); it cannot be read.`,
        );
      }
      // The editor's buffer where the run has the editor's file system: what the user sees, unsaved changes included.
      const buffered = await editorText(editorFsOf(ctx.env), target.abs);
      if (buffered !== null) {
        const all = Buffer.from(buffered, "utf8");
        return readOutcome(rel, all.subarray(0, ctx.readCapBytes), all.length);
      }
      handle = await fs.open(target.abs, "r");
      const buf = Buffer.alloc(Math.min(stat.size, ctx.readCapBytes));
      const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
      return readOutcome(rel, buf.subarray(0, bytesRead), stat.size);
    } catch (error) {
      return fsFailure(error, target.rel);
    } finally {
      await handle?.close();
    }
  },
};

// The first bytes of a file of `size` bytes (all of them, or up to the cap) as what the model reads.
function readOutcome(rel: string, data: Buffer, size: number): ToolOutcome {
  if (data.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
    return toolError(rel, "binary", `\`${rel}\` looks like a binary file (${size} bytes); only text files can be read.`);
  }
  const text = data.length < size ? decodeCutEnd(data) : data.toString("utf8");
  const more = size - Buffer.byteLength(text);
  if (more > 0) {
    return { ok: true, content: `${text}\n[truncated: ${more} more bytes]`, summary: `${rel} (truncated, ${more} more bytes)` };
  }
  return { ok: true, content: text, summary: `${rel} (${size} bytes)` };
}

import fs from "node:fs/promises";
import { z } from "zod";
import { fsFailure, toolError } from "./file-errors.js";
import { displayPath, resolveInside } from "./paths.js";
import type { ToolDef } from "./types.js";
import { walkFiles, type WalkStats } from "./walk.js";

const schema = z.object({
  path: z.string().optional().describe("Folder to list, relative to the project root. Omit (or `.`) for the whole project."),
});

/** Entries shown; the rest are only counted (up to COUNT_LIMIT) so the model knows to narrow the path. */
const MAX_ENTRIES = 500;
const COUNT_LIMIT = 50_000;
/** A listing stops after this long on a huge or slow tree, and says so. */
const TIME_LIMIT_MS = 10_000;

/** list_files: every file under a folder, recursively, as project-relative paths. */
export const listFilesTool: ToolDef<typeof schema> = {
  name: "list_files",
  description: "List the files under a folder of the project, recursively, as paths relative to the project root. Skips .git, .yolo and node_modules.",
  schema,
  async run(args, ctx) {
    const target = resolveInside(ctx.root, args.path ?? ".");
    if (!target.ok) return toolError(args.path ?? ".", "refused", target.reason);
    const rel = displayPath(target.rel);
    try {
      await fs.stat(target.abs);
    } catch (error) {
      return fsFailure(error, target.rel);
    }
    const shown: string[] = [];
    let total = 0;
    const stats: WalkStats = { visited: 0, capped: false, source: null };
    for await (const file of walkFiles(ctx.root, target.rel, { stats, deadline: Date.now() + TIME_LIMIT_MS })) {
      total++;
      if (shown.length < MAX_ENTRIES) shown.push(file);
      if (total >= COUNT_LIMIT) break;
    }
    const capped = total >= COUNT_LIMIT || stats.capped;
    if (total === 0 && !capped) return { ok: true, content: `No files under \`${rel}\`.`, summary: `${rel} (0 files)` };
    const hidden = total - shown.length;
    const more = hidden > 0 ? `\n… ${hidden}${capped ? "+" : ""} more files not shown; list a subfolder to see them.` : "";
    const stop = capped
      ? `\n(listing capped: stopped after ${total} files${stats.capped && total < COUNT_LIMIT ? " at the time or size limit" : ""}; list a subfolder for a complete list)`
      : "";
    return { ok: true, content: shown.join("\n") + more + stop, summary: `${rel} (${total}${capped ? "+" : ""} files)` };
  },
};

import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { fsFailure, toolError } from "./file-errors.js";
import { displayPath, resolveInside } from "./paths.js";
import type { ToolDef } from "./types.js";
import { walkFiles, type WalkStats } from "./walk.js";

const schema = z.object({
  pattern: z.string().describe("JavaScript regular expression searched for in each line, e.g. `function\\s+add`."),
  path: z.string().optional().describe("Folder or file to search, relative to the project root. Omit to search the whole project."),
});

const MAX_MATCHES = 100;
/** Files larger than this are skipped: generated bundles and data, not source the model should grep. */
const MAX_FILE_BYTES = 1024 * 1024;
const MAX_LINE_CHARS = 200;
/**
 * Bounds on one search of a huge tree: files read, bytes read, wall time. Reaching one ends the search, which says
 * so. Files are read synchronously (a fifth of the cost of two thread-pool round trips a file), in slices of about
 * `sliceMs` between which the event loop runs: the live view, other stories' model streams, a Ctrl+C. Mutable only
 * so tests can reach them on a small tree.
 */
export const SEARCH_LIMITS = { maxFiles: 20_000, maxBytes: 64 * 1024 * 1024, timeMs: 15_000, sliceMs: 8 };
/** Extensions of files that are never text: skipped without reading them. */
const BINARY_EXTENSIONS = new Set([
  "png",
  "jpg",
  "jpeg",
  "gif",
  "webp",
  "ico",
  "bmp",
  "tiff",
  "pdf",
  "zip",
  "gz",
  "tgz",
  "bz2",
  "xz",
  "7z",
  "rar",
  "jar",
  "war",
  "class",
  "so",
  "dylib",
  "dll",
  "exe",
  "o",
  "a",
  "lib",
  "wasm",
  "pyc",
  "woff",
  "woff2",
  "ttf",
  "otf",
  "mp3",
  "mp4",
  "mov",
  "avi",
  "webm",
  "ogg",
  "wav",
  "sqlite",
  "db",
  "bin",
]);

/** search_files: `file:line: text` for every line matching a regex, over the project's text files. */
export const searchFilesTool: ToolDef<typeof schema> = {
  name: "search_files",
  description:
    "Search the project's text files for a JavaScript regular expression, line by line. Returns `file:line: text`. Skips .git, .yolo, node_modules, binary and very large files.",
  schema,
  async run(args, ctx) {
    let regex: RegExp;
    try {
      regex = new RegExp(args.pattern);
    } catch (error) {
      return toolError(
        `/${args.pattern}/`,
        "invalid regex",
        `Invalid regular expression: ${(error as Error).message}. Escape special characters such as ( [ { . * + ? with a backslash.`,
      );
    }
    const target = resolveInside(ctx.root, args.path ?? ".");
    if (!target.ok) return toolError(args.path ?? ".", "refused", target.reason);
    const where = displayPath(target.rel);
    try {
      await fs.stat(target.abs);
    } catch (error) {
      return fsFailure(error, target.rel);
    }

    const matches: string[] = [];
    let total = 0;
    let searched = 0;
    let bytes = 0;
    let limit: string | null = null;
    const { maxFiles, maxBytes, timeMs } = SEARCH_LIMITS;
    const deadline = Date.now() + timeMs;
    const stats: WalkStats = { visited: 0, capped: false, source: null };
    const search = (file: string, text: string) => {
      searched++;
      bytes += text.length;
      const lines = text.split("\n");
      for (let i = 0; i < lines.length; i++) {
        if (!regex.test(lines[i])) continue;
        total++;
        if (matches.length < MAX_MATCHES) matches.push(`${file}:${i + 1}: ${clip(lines[i])}`);
      }
    };
    const overLimit = (): string | null =>
      searched >= maxFiles
        ? `${maxFiles} files`
        : bytes >= maxBytes
          ? `${Math.round(maxBytes / 1024)} KB read`
          : Date.now() > deadline
            ? `${timeMs / 1000} s`
            : null;
    // In walk order, so results stay deterministic.
    let slice = performance.now();
    for await (const file of walkFiles(ctx.root, target.rel, { stats, deadline })) {
      if (BINARY_EXTENSIONS.has(path.extname(file).slice(1).toLowerCase())) continue;
      limit = overLimit();
      if (limit) break;
      const text = readText(path.join(ctx.root, file));
      if (text !== null) search(file, text);
      if (performance.now() - slice >= SEARCH_LIMITS.sliceMs) {
        await new Promise((resolve) => setImmediate(resolve));
        slice = performance.now();
      }
    }
    if (!limit && stats.capped) limit = "the walk's time or size limit";
    const capped = limit ? `\n(search capped at ${limit} after ${searched} files: files after that were not searched; narrow the path)` : "";
    const summary = `/${args.pattern}/ in ${where} (${total} matches${limit ? ", capped" : ""})`;
    if (total === 0) return { ok: true, content: `No matches for /${args.pattern}/ under \`${where}\`.${capped}`, summary };
    const note = total > MAX_MATCHES ? `\n… ${total - MAX_MATCHES} more matches not shown; narrow the pattern or the path.` : "";
    return { ok: true, content: matches.join("\n") + note + capped, summary };
  },
};

/**
 * Text of a regular, small, non-binary file; null for anything that should not be searched. The file is opened without
 * following a symlink and without blocking (a FIFO swapped in after the lstat cannot hang the search), and what was
 * opened must still be a regular file with one link: a symlink or hard link put in its place meanwhile is not read.
 */
function readText(abs: string): string | null {
  let fd: number;
  try {
    const seen = lstatSync(abs);
    // A hard-linked file may be a file outside the project under a second name: never searched.
    if (!seen.isFile() || seen.size > MAX_FILE_BYTES || seen.nlink > 1) return null;
    fd = openSync(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_FILE_BYTES || stat.nlink > 1) return null;
    const buf = Buffer.allocUnsafe(stat.size);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    const bytes = buf.subarray(0, got);
    if (bytes.subarray(0, 8192).includes(0)) return null;
    return bytes.toString("utf8");
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

function clip(line: string): string {
  const trimmed = line.replace(/\r$/, "");
  return trimmed.length > MAX_LINE_CHARS ? `${trimmed.slice(0, MAX_LINE_CHARS)}…` : trimmed;
}

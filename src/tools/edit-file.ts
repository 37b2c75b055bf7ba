import { z } from "zod";
import { formatChange, lineDiffStat } from "./diffstat.js";
import { editorFsOf, writeChecked } from "./editor-fs.js";
import { execWriteRefusal } from "../exec/exec-files.js";
import { fsFailure, toolError } from "./file-errors.js";
import { isOutcome, loadWritableTarget } from "./file-target.js";
import type { ToolDef, ToolOutcome } from "./types.js";

const schema = z.object({
  path: z.string().describe("Path of an existing file, relative to the project root."),
  old_string: z
    .string()
    .describe(
      "Exact text to replace, including whitespace and indentation. It must occur exactly once in the file; include surrounding lines to make it unique.",
    ),
  new_string: z.string().describe("Text that replaces old_string."),
});

/** How many occurrence line numbers an ambiguity error lists. */
const MAX_LISTED = 10;

/** edit_file: replaces one exact, unique occurrence of a string in a file, atomically. */
export const editFileTool: ToolDef<typeof schema> = {
  name: "edit_file",
  description:
    "Replace one exact occurrence of old_string with new_string in an existing file. old_string must appear exactly once; copy it from read_file output, with enough context to be unique.",
  schema,
  async run(args, ctx) {
    const editor = editorFsOf(ctx.env);
    const target = await loadWritableTarget(ctx.root, args.path, editor);
    if (isOutcome(target)) return target;
    const refusal = execWriteRefusal(ctx.root, target.abs, target.rel, ctx.commands?.allowExecFiles ?? [], ctx.commands?.config);
    if (refusal) return toolError(target.rel, "refused (protected file)", refusal);
    const { rel, before } = target;
    if (before === null) {
      return toolError(rel, "not found", `\`${rel}\` does not exist; create it with write_file, or use list_files to find the right path.`);
    }
    if (args.old_string === "") {
      return toolError(rel, "empty old_string", "old_string is empty; give the exact text to replace (to write a whole file use write_file).");
    }
    if (args.old_string === args.new_string) {
      return toolError(rel, "no change", "old_string and new_string are identical; nothing would change.");
    }
    const { oldText, newText } = matchLineEndings(before, args.old_string, args.new_string);
    const positions = occurrences(before, oldText);
    if (positions.length === 0) return notFound(rel, before, oldText);
    if (positions.length > 1) return ambiguous(rel, before, positions);

    const at = positions[0];
    const after = before.slice(0, at) + newText + before.slice(at + oldText.length);
    const stat = lineDiffStat(before, after);
    try {
      await writeChecked(editor, target.abs, after, target.mode, ctx.root);
    } catch (error) {
      return fsFailure(error, target.rel);
    }
    return {
      ok: true,
      content: `Edited \`${rel}\` at line ${lineOf(before, at)} (+${stat.added} −${stat.removed} lines).`,
      summary: formatChange(rel, stat),
      filesChanged: [rel],
    };
  },
};

// Models usually send "\n"; when the file uses CRLF and the LF text is absent, match and write CRLF instead.
function matchLineEndings(content: string, oldString: string, newString: string): { oldText: string; newText: string } {
  if (content.includes(oldString) || !content.includes("\r\n") || !oldString.includes("\n")) {
    return { oldText: oldString, newText: newString };
  }
  const crlf = (s: string) => s.replace(/\r?\n/g, "\r\n");
  return { oldText: crlf(oldString), newText: crlf(newString) };
}

// Start offsets of every occurrence, overlapping ones included (they make the edit just as ambiguous).
function occurrences(content: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = content.indexOf(needle); i !== -1; i = content.indexOf(needle, i + 1)) found.push(i);
  return found;
}

function lineOf(content: string, offset: number): number {
  let line = 1;
  for (let i = content.indexOf("\n"); i !== -1 && i < offset; i = content.indexOf("\n", i + 1)) line++;
  return line;
}

function ambiguous(rel: string, content: string, positions: number[]): ToolOutcome {
  const lines = positions.slice(0, MAX_LISTED).map((p) => lineOf(content, p));
  const more = positions.length > MAX_LISTED ? ` and ${positions.length - MAX_LISTED} more` : "";
  return toolError(
    rel,
    `old_string found ${positions.length} times`,
    `old_string was found ${positions.length} times in \`${rel}\` (starting at lines ${lines.join(", ")}${more}); it must occur exactly once. Include more surrounding lines in old_string to pick one occurrence.`,
  );
}

// Says whether a whitespace-insensitive match exists, which is the usual reason an edit misses.
function notFound(rel: string, content: string, oldText: string): ToolOutcome {
  const hint = looseMatchLine(content, oldText);
  const detail =
    hint === null
      ? "Read the file again with read_file and copy the exact text."
      : `A match that differs only in whitespace or indentation starts at line ${hint}; copy the exact text from read_file, including indentation.`;
  return toolError(rel, "old_string not found", `old_string was not found in \`${rel}\`. ${detail}`);
}

// Line where old_string's text starts when runs of whitespace are treated as equal; null when there is none.
function looseMatchLine(content: string, oldText: string): number | null {
  const firstLine = oldText
    .split("\n")
    .find((l) => l.trim() !== "")
    ?.trim();
  if (!firstLine) return null;
  const squash = (s: string) => s.replace(/\s+/g, " ").trim();
  const want = squash(oldText);
  const lines = content.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!squash(lines[i]).includes(squash(firstLine))) continue;
    const window = squash(lines.slice(i, i + oldText.split("\n").length + 2).join("\n"));
    if (window.includes(want)) return i + 1;
  }
  return null;
}

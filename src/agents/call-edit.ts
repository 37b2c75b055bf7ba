import type { ToolEdit } from "../events/schema.js";

/**
 * Past this many characters (old and new text together) an edit's texts stay out of the `tool.called` event: the
 * event is printed by `--json`, kept by every consumer and replayed, and a whole generated file in each one would
 * swell them all. The path is kept whatever the size.
 */
export const EDIT_TEXT_CAP = 64 * 1024;

/**
 * What a file-editing call will change, from its whole arguments (the event's `args` is a 200-character preview
 * that can end before the path): the path as the model gave it, the text replaced (edit_file's `old_string`; null
 * for write_file, which replaces the whole file) and the new text, or null texts past EDIT_TEXT_CAP. Null for any
 * other tool, or arguments without a usable path.
 */
export function callEdit(tool: string, args: Record<string, unknown> | null): ToolEdit | null {
  if (!args || (tool !== "write_file" && tool !== "edit_file")) return null;
  const { path } = args;
  if (typeof path !== "string" || path === "" || path.length > 4096) return null;
  const newText = tool === "write_file" ? args.content : args.new_string;
  const oldText = tool === "edit_file" ? args.old_string : null;
  if (typeof newText !== "string" || (oldText !== null && typeof oldText !== "string")) return { path, oldText: null, newText: null };
  if (newText.length + (oldText?.length ?? 0) > EDIT_TEXT_CAP) return { path, oldText: null, newText: null };
  return { path, oldText, newText };
}

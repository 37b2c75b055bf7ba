import fs from "node:fs/promises";
import { fsFailure, toolError } from "./file-errors.js";
import { editorText, type EditorFs } from "./editor-fs.js";
import { displayPath, resolveInside } from "./paths.js";
import type { ToolOutcome } from "./types.js";

export interface WritableTarget {
  abs: string;
  rel: string;
  /** Current content, or null when the file does not exist yet. */
  before: string | null;
  /** Permission bits of the existing file, kept across the rewrite. */
  mode?: number;
}

/**
 * Resolves a path a tool is about to write and loads what is there now. Refuses a symlink at the target itself:
 * renaming over it would replace the link, and writing through it would change a file the path does not name.
 * Refuses a file with several hard links for the same reason (another name, maybe outside the project, shares it).
 * With the editor's file system, what is there now is the editor's buffer (unsaved changes included).
 */
export async function loadWritableTarget(root: string, userPath: string, editor: EditorFs | null = null): Promise<WritableTarget | ToolOutcome> {
  const target = resolveInside(root, userPath);
  if (!target.ok) return toolError(userPath, "refused", target.reason);
  const rel = displayPath(target.rel);
  if (target.rel === "") return toolError(rel, "is a directory", "`.` is the project root, a directory; give a file path.");
  if (isInstalledDependency(rel)) {
    return toolError(
      rel,
      "refused (installed dependency)",
      `\`${rel}\` is in an installed dependency folder: the project's tests run against it, so agents do not change it. Change the project's own code; a human can change the dependency.`,
    );
  }
  try {
    const stat = await fs.lstat(target.abs);
    if (stat.isSymbolicLink()) {
      return toolError(rel, "refused (symlink)", `\`${rel}\` is a symbolic link; write to the file it points to instead, by its own path.`);
    }
    if (stat.isDirectory()) return fsFailure("EISDIR", target.rel);
    if (!stat.isFile()) return toolError(rel, "not a file", `\`${rel}\` is not a regular file; choose another path.`);
    if (stat.nlink > 1) {
      return toolError(
        rel,
        "refused (hard link)",
        `\`${rel}\` has ${stat.nlink} hard links, so changing it would change files elsewhere; write a new file instead.`,
      );
    }
    const before = (await editorText(editor, target.abs)) ?? (await fs.readFile(target.abs, "utf8"));
    return { abs: target.abs, rel, before, mode: stat.mode };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { abs: target.abs, rel, before: null };
    return fsFailure(error, target.rel);
  }
}

/** Whether a project-relative path is inside installed dependencies: node_modules anywhere, a virtualenv at the top. */
export function isInstalledDependency(rel: string): boolean {
  const parts = rel.split("/");
  return parts.includes("node_modules") || (parts.length > 1 && (parts[0] === ".venv" || parts[0] === "venv"));
}

/** Narrows the union returned by loadWritableTarget. */
export function isOutcome(value: WritableTarget | ToolOutcome): value is ToolOutcome {
  return "ok" in value;
}

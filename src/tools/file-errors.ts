import { displayPath } from "./paths.js";
import type { ToolOutcome } from "./types.js";

/** A refusal or failure the model can act on; the summary is `<target>: <short reason>` for progress output. */
export function toolError(target: string, short: string, content: string): ToolOutcome {
  return { ok: false, content, summary: `${target}: ${short}` };
}

/** A filesystem error (or its code) as a tool error, worded without absolute paths (Node's own messages embed them). */
export function fsFailure(error: unknown, rel: string): ToolOutcome {
  const code = typeof error === "string" ? error : (error as NodeJS.ErrnoException | undefined)?.code;
  const shown = displayPath(rel);
  switch (code) {
    case "ENOENT":
      return toolError(shown, "not found", `\`${shown}\` does not exist; use list_files to see which files exist.`);
    case "EISDIR":
      return toolError(shown, "is a directory", `\`${shown}\` is a directory; use list_files to see its files.`);
    case "ENOTDIR":
      return toolError(shown, "not a directory", `A parent of \`${shown}\` is a file, not a directory; choose another path.`);
    case "EACCES":
    case "EPERM":
      return toolError(shown, "permission denied", `Permission denied for \`${shown}\`.`);
    case "EESCAPE":
      return toolError(shown, "refused", `\`${shown}\` now resolves outside the project root (a folder was replaced by a link); nothing was written.`);
    case "ENOSPC":
    case "EROFS":
    case "EDQUOT":
      return toolError(
        shown,
        code === "EROFS" ? "read-only filesystem" : "disk full",
        `Could not write \`${shown}\`: the disk is ${code === "EROFS" ? "read-only" : "full"} (${code}); nothing was changed.`,
      );
    default:
      return toolError(shown, "failed", `Could not access \`${shown}\` (${code ?? String(error)}).`);
  }
}

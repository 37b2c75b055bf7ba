import { existsSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { readProjectText } from "../secrets/project-read.js";
import { fence } from "../text/fence.js";

export { DEFAULT_INSTRUCTION_FILES } from "../config/defaults.js";

/** A folder's override, read instead of its instruction file (Codex's convention). */
export const OVERRIDE_FILE = "AGENTS.override.md";

/** All instruction files together are cut at this many bytes (Codex's cap), at a line, saying so. */
export const INSTRUCTIONS_CAP_BYTES = 32 * 1024;

export interface InstructionSource {
  /** Where the repository starts: the first folder read. */
  root: string;
  /** The folder yolo was started in (the root when absent); folders from the root down to it are read. */
  startDir?: string;
  names: readonly string[];
}

export interface Instructions {
  /** The files read, project-relative (POSIX), root first. */
  files: string[];
  /** Files found but not read (a link out of the project, a secret, a binary), with the reason. */
  refused: { file: string; reason: string }[];
  /** The fenced text for the prompt; null when there is none. */
  text: string | null;
  /** Bytes left out by the cap (0: none). */
  cutBytes: number;
}

/**
 * The project's instruction files from the root down to the start folder, nearer ones later (so they win where
 * they disagree): in each folder `AGENTS.override.md` when there is one, else the first of `names` present. Read as
 * read_file would (no link out of the project, no secret file; scrubbed), capped at 32 KiB in all.
 */
export function readInstructions(source: InstructionSource): Instructions {
  const out: Instructions = { files: [], refused: [], text: null, cutBytes: 0 };
  const parts: string[] = [];
  let used = 0;
  for (const dir of foldersDown(source.root, source.startDir ?? source.root)) {
    const file = [OVERRIDE_FILE, ...source.names].map((name) => (dir ? `${dir}/${name}` : name)).find((rel) => existsSync(join(source.root, rel)));
    if (!file) continue;
    const read = readProjectText(source.root, file, INSTRUCTIONS_CAP_BYTES + 1);
    if (!read.ok) {
      if (!read.missing) out.refused.push({ file, reason: read.reason });
      continue;
    }
    const text = read.text.trim();
    if (!text) continue;
    out.files.push(file);
    const room = INSTRUCTIONS_CAP_BYTES - used;
    const bytes = Buffer.byteLength(text);
    if (bytes <= room && !read.truncated) {
      parts.push(fence(`instructions: ${file}`, text));
      used += bytes;
      continue;
    }
    const kept = cutAtLine(text, room);
    out.cutBytes += Math.max(read.bytes, bytes) - Buffer.byteLength(kept);
    if (kept) parts.push(fence(`instructions: ${file}`, kept));
    used = INSTRUCTIONS_CAP_BYTES;
  }
  if (out.cutBytes > 0) parts.push(`(Instructions cut at ${INSTRUCTIONS_CAP_BYTES / 1024} KiB: ${out.cutBytes} more bytes not shown; read_file has them.)`);
  out.text = parts.length ? parts.join("\n") : null;
  return out;
}

// "" (the root), then each folder on the way down to `startDir`, project-relative with "/".
function foldersDown(root: string, startDir: string): string[] {
  const rel = relative(root, startDir);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return [""];
  const parts = rel.split(sep);
  return ["", ...parts.map((_, i) => parts.slice(0, i + 1).join("/"))];
}

// The longest start of `text` within `bytes` that ends at a line end.
function cutAtLine(text: string, bytes: number): string {
  if (bytes <= 0) return "";
  const head = Buffer.from(text)
    .subarray(0, bytes)
    .toString("utf8")
    .replace(/\uFFFD$/, "");
  const end = head.lastIndexOf("\n");
  return end > 0 ? head.slice(0, end) : "";
}

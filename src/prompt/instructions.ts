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
  /** The files given to the agents, whole or in part, project-relative (POSIX), root first. */
  files: string[];
  /** Files found but not read (a link out of the project, a secret, a binary), with the reason. */
  refused: { file: string; reason: string }[];
  /** Files the cap cut (given in part) or left out (none of it given), nearest last; empty when nothing was cut. */
  cut: { file: string; shownBytes: number; bytes: number }[];
  /** The fenced text for the prompt; null when there is none. */
  text: string | null;
  /** Bytes left out by the cap (0: none). */
  cutBytes: number;
}

interface ReadFile {
  file: string;
  text: string;
  /** The file's size on disk (the read may stop past the cap). */
  bytes: number;
  truncated: boolean;
}

/**
 * The project's instruction files from the root down to the start folder, nearer ones later (so they win where
 * they disagree): in each folder `AGENTS.override.md` when there is one, else the first of `names` present. Read as
 * read_file would (no link out of the project, no secret file; scrubbed), capped at 32 KiB in all. The cap is spent
 * from the nearest file outwards, so the file that wins is the one kept whole and the root's is cut (its start kept)
 * or left out; `files` names only what was given, `cut` what was not given whole.
 */
export function readInstructions(source: InstructionSource): Instructions {
  const out: Instructions = { files: [], refused: [], cut: [], text: null, cutBytes: 0 };
  const found = readAll(source, out.refused);
  const shown = new Map<string, string>();
  let room = INSTRUCTIONS_CAP_BYTES;
  for (const f of [...found].reverse()) {
    const whole = Buffer.byteLength(f.text) <= room && !f.truncated;
    const kept = whole ? f.text : cutAtLine(f.text, room);
    room -= Buffer.byteLength(kept);
    if (kept) shown.set(f.file, kept);
    if (whole) continue;
    const bytes = Math.max(f.bytes, Buffer.byteLength(f.text));
    out.cut.unshift({ file: f.file, shownBytes: Buffer.byteLength(kept), bytes });
    out.cutBytes += bytes - Buffer.byteLength(kept);
  }
  const parts = found.filter((f) => shown.has(f.file)).map((f) => fence(`instructions: ${f.file}`, shown.get(f.file) ?? ""));
  out.files = found.filter((f) => shown.has(f.file)).map((f) => f.file);
  if (out.cutBytes > 0)
    parts.push(`(Instructions cut at ${INSTRUCTIONS_CAP_BYTES / 1024} KiB, from the root's side: ${cutWords(out.cut)}; read_file has them.)`);
  out.text = parts.length ? parts.join("\n") : null;
  return out;
}

/** `AGENTS.md (4096 of 57344 bytes shown), docs/AGENTS.md (left out, 900 bytes)`: what the cap did to each file. */
export function cutWords(cut: Instructions["cut"]): string {
  return cut.map((c) => (c.shownBytes ? `${c.file} (${c.shownBytes} of ${c.bytes} bytes shown)` : `${c.file} (left out, ${c.bytes} bytes)`)).join(", ");
}

// Each folder's instruction file, root first, read whole up to just past the cap; refusals go to `refused`.
function readAll(source: InstructionSource, refused: Instructions["refused"]): ReadFile[] {
  const found: ReadFile[] = [];
  for (const dir of foldersDown(source.root, source.startDir ?? source.root)) {
    const file = [OVERRIDE_FILE, ...source.names].map((name) => (dir ? `${dir}/${name}` : name)).find((rel) => existsSync(join(source.root, rel)));
    if (!file) continue;
    const read = readProjectText(source.root, file, INSTRUCTIONS_CAP_BYTES + 1);
    if (!read.ok) {
      if (!read.missing) refused.push({ file, reason: read.reason });
      continue;
    }
    const text = read.text.trim();
    if (text) found.push({ file, text, bytes: read.bytes, truncated: read.truncated });
  }
  return found;
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

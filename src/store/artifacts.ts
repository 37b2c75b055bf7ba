import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { scrubValue } from "../secrets/scrub.js";
import { withStorageError } from "./state-dir.js";

/** `<threadDir>/transcripts/<node>.jsonl`. Node names are graph node ids; anything path-like is refused. */
export function transcriptPath(threadDir: string, node: string): string {
  if (!/^[A-Za-z0-9_.-]+$/.test(node) || node.startsWith(".")) {
    throw new Error(`Invalid transcript name "${node}": expected a graph node id.`);
  }
  return join(threadDir, "transcripts", `${node}.jsonl`);
}

/**
 * Appends one JSON line to a node's transcript. Append-only: a crash can at worst leave a torn last line,
 * which the next append closes off with a newline so the new entry stays readable.
 */
export function appendTranscript(threadDir: string, node: string, entry: object): void {
  const file = transcriptPath(threadDir, node);
  const line = `${JSON.stringify(scrubValue(entry))}\n`;
  withStorageError(file, () => {
    const known = appendedHere.get(file);
    appendedHere.delete(file);
    if (known !== undefined && statSync(file, { throwIfNoEntry: false })?.size === known) {
      appendFileSync(file, line);
      appendedHere.set(file, known + Buffer.byteLength(line));
      return;
    }
    mkdirSync(join(threadDir, "transcripts"), { recursive: true });
    appendFileSync(file, endsTorn(file) ? `\n${line}` : line);
    appendedHere.set(file, statSync(file).size);
  });
}

// The size of each transcript right after this process appended a whole line to it: while it is unchanged, the file
// still ends with that line's newline and its folder exists, which otherwise cost six more system calls an entry.
const appendedHere = new Map<string, number>();

/** Reads a node's transcript; lines that do not parse (a write torn by a crash) are skipped. Missing file → []. */
export function readTranscript(threadDir: string, node: string): object[] {
  let text: string;
  try {
    text = readFileSync(transcriptPath(threadDir, node), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const entries: object[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const value: unknown = JSON.parse(line);
      if (value !== null && typeof value === "object") entries.push(value);
    } catch {
      // A torn write; the entries around it are intact.
    }
  }
  return entries;
}

// True when the file exists, is non-empty and its last byte is not a newline.
function endsTorn(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return false;
  }
  try {
    const { size } = fstatSync(fd);
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    closeSync(fd);
  }
}

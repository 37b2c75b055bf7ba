import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, statSync, writeFileSync } from "node:fs";
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
 * Appends one JSON line to a node's transcript (one per entry when given several, in one write). Append-only: a
 * crash can at worst leave a torn last line, which the next append closes off with a newline so the new entry stays
 * readable. The lines are written to the file before this returns (no buffering): a kill loses nothing recorded.
 */
export function appendTranscript(threadDir: string, node: string, entry: object | readonly object[]): void {
  const file = transcriptPath(threadDir, node);
  const entries: readonly object[] = Array.isArray(entry) ? entry : [entry];
  if (entries.length === 0) return;
  const line = entries.map((e) => `${JSON.stringify(scrubValue(e))}\n`).join("");
  withStorageError(file, () => {
    const kept = openHere.get(file);
    if (kept) {
      openHere.delete(file);
      const now = statSync(file, { throwIfNoEntry: false });
      if (now?.ino === kept.ino && now.dev === kept.dev && now.size === kept.size) {
        appendOn(kept, line, file);
        return;
      }
      closeSync(kept.fd);
    }
    mkdirSync(join(threadDir, "transcripts"), { recursive: true });
    const torn = endsTorn(file);
    const fd = openSync(file, "a");
    const { ino, dev, size } = fstatSync(fd);
    appendOn({ fd, ino, dev, size }, torn ? `\n${line}` : line, file);
  });
}

/**
 * Transcripts this process appended a whole line to, kept open (O_APPEND) with the file's identity and size right
 * after that line. While the path still names that file at that size, it still ends with our newline and its
 * folder exists, so an entry costs a stat and a write instead of six more system calls. Least recently used first.
 */
const openHere = new Map<string, { fd: number; ino: number; dev: number; size: number }>();
const MAX_OPEN = 8;

// Writes `text` on the kept descriptor and keeps it for the next entry; a failed write closes it (the next append reopens and checks for a torn line).
function appendOn(kept: { fd: number; ino: number; dev: number; size: number }, text: string, file: string): void {
  try {
    writeFileSync(kept.fd, text);
  } catch (error) {
    closeSync(kept.fd);
    throw error;
  }
  kept.size += Buffer.byteLength(text);
  openHere.set(file, kept);
  if (openHere.size > MAX_OPEN) {
    const [oldest, { fd }] = openHere.entries().next().value as [string, { fd: number }];
    openHere.delete(oldest);
    closeSync(fd);
  }
}

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

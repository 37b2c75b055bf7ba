// node:fs's `promises`, read when first used: a resume reads its thread through modules that import this one, before
// run.started, and loading node:fs/promises (readline with it) there cost every resume's start about 2 ms of CPU.
import { promises as fs } from "node:fs";
import path from "node:path";
import type { GateDefinition } from "./definition.js";
import type { BaselineGate } from "./judge.js";

/** What a thread's baseline recorded on disk: what defines the gates, and every test's result per gate. */
export interface BaselineRecord {
  definition: GateDefinition;
  gates: BaselineGate[];
  /** The project's git tree the baseline ran on (src/git/work-tree-hash.ts); absent outside git and in older records. */
  tree?: string | null;
}

/** Writes a JSON record atomically (temp file, then rename), so a kill mid-write leaves the old one or none. */
export async function writeRecord(file: string, value: unknown): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, JSON.stringify(value));
  await fs.rename(tmp, file);
}

/** Reads a record written by `writeRecord`; null when it is missing or unreadable (another machine's artifacts). */
export async function readRecord<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await fs.readFile(file, "utf8")) as T;
  } catch {
    return null;
  }
}

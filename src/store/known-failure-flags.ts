import fs from "node:fs/promises";
import path from "node:path";
import { threadArtifactsDir } from "./state-dir.js";

// One JSON record in a `.jsonl` file: a `.json` one in the project was flagged by `prettier --check .` (docs/gates.md).
const FILE = "known-failures.jsonl";
/** The name an older yolo wrote, still read. */
const LEGACY_FILE = "known-failures.json";

/**
 * The `--known-failure` patterns of a thread: those this leg was given, added to those earlier legs were given (kept
 * in the thread's artifacts folder), so a resume without the flag keeps them. Returns them all.
 */
export async function threadKnownFailureFlags(artifactsDir: string, threadId: string, given: readonly string[] = []): Promise<string[]> {
  const dir = threadArtifactsDir(artifactsDir, threadId);
  const file = path.join(dir, FILE);
  const kept = [...new Set([...(await readPatterns(file)), ...(await readPatterns(path.join(dir, LEGACY_FILE)))])];
  const all = [...new Set([...kept, ...given.map((p) => p.trim()).filter(Boolean)])];
  if (all.length > kept.length) {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    await fs.writeFile(tmp, JSON.stringify(all));
    await fs.rename(tmp, file);
  }
  return all;
}

async function readPatterns(file: string): Promise<string[]> {
  try {
    const value: unknown = JSON.parse(await fs.readFile(file, "utf8"));
    return Array.isArray(value) ? value.filter((p): p is string => typeof p === "string") : [];
  } catch {
    return [];
  }
}

import fs from "node:fs";
import path from "node:path";
import { threadArtifactsDir, threadArtifactsPath } from "./state-dir.js";

// One JSON record in a `.jsonl` file: a `.json` one in the project was flagged by `prettier --check .` (docs/gates.md).
const FILE = "test-command.jsonl";
/** The name an older yolo wrote, still read. */
const LEGACY_FILE = "test-command.json";

/**
 * The `--test-cmd` a thread runs with: the one this leg was given, else the one an earlier leg kept in the thread's
 * artifacts folder (a fork reads its source's); null when no leg gave one. Nothing is written until `keep()`, called
 * once the leg is really starting, so a refused start leaves no trace; then a resume without the flag runs the same
 * gate rather than the configured one.
 */
export function threadTestCommand(
  artifactsDir: string,
  threadId: string,
  given: string | undefined,
  from: string = threadId,
): { command: string | null; keep(): void } {
  // Read without creating anything (and a bad id reads nothing: the thread's own checks word that).
  const kept = (id: string) => {
    try {
      const dir = threadArtifactsPath(artifactsDir, id);
      return read(path.join(dir, FILE)) ?? read(path.join(dir, LEGACY_FILE));
    } catch {
      return null;
    }
  };
  const file = (id: string) => path.join(threadArtifactsDir(artifactsDir, id), FILE);
  // A blank one is refused by the caller (`--test-cmd is empty`) and never kept.
  if (given !== undefined && !given.trim()) return { command: given, keep() {} };
  const command = given ?? kept(from);
  const changed = command !== null && (given !== undefined || from !== threadId);
  return {
    command,
    keep() {
      if (!changed) return;
      fs.mkdirSync(path.dirname(file(threadId)), { recursive: true });
      const tmp = `${file(threadId)}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(command));
      fs.renameSync(tmp, file(threadId));
    },
  };
}

function read(file: string): string | null {
  try {
    const value: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
    return typeof value === "string" && value.trim() ? value : null;
  } catch {
    return null;
  }
}

import fs from "node:fs";
import path from "node:path";
import { threadArtifactsDir } from "./state-dir.js";

const FILE = "test-command.json";

/**
 * The `--test-cmd` a thread runs with: the one this leg was given (kept in the thread's artifacts folder, so a resume
 * without the flag runs the same gate rather than the configured one), else the one an earlier leg kept; null when
 * no leg gave one. A fork reads its source's and keeps it as its own.
 */
export function threadTestCommand(artifactsDir: string, threadId: string, given: string | undefined, from: string = threadId): string | null {
  const file = (id: string) => path.join(threadArtifactsDir(artifactsDir, id), FILE);
  // A blank one is refused by the caller (`--test-cmd is empty`) and never kept.
  if (given !== undefined && !given.trim()) return given;
  const command = given ?? read(file(from));
  if (command !== null && (given !== undefined || from !== threadId)) {
    fs.mkdirSync(path.dirname(file(threadId)), { recursive: true });
    const tmp = `${file(threadId)}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(command));
    fs.renameSync(tmp, file(threadId));
  }
  return command;
}

function read(file: string): string | null {
  try {
    const value: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
    return typeof value === "string" && value.trim() ? value : null;
  } catch {
    return null;
  }
}

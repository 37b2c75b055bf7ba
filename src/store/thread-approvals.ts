import fs from "node:fs";
import path from "node:path";
import { threadArtifactsDir, threadArtifactsPath } from "./state-dir.js";

const FILE = "approve.jsonl";

/**
 * The agents whose output a thread waits on a human for: those this leg asks for (the config's `approve` and
 * `YOLO_APPROVE`) and those any earlier leg asked for (a fork: its source's). A thread keeps the graph it was
 * started with: an editor's plan mode asks for pm's approval through the environment only, and a later `yolo resume`
 * without it must stop at the plan again, not run past it. Approvals are only ever added, so a kept list can make a
 * thread wait for a human, never skip one. Nothing is written until `keep()`, called once the leg really starts.
 */
export function threadApprovals(
  artifactsDir: string,
  threadId: string,
  asked: readonly string[],
  from: string = threadId,
): { approve: string[]; keep(): void } {
  const kept = (id: string): string[] => {
    try {
      return read(path.join(threadArtifactsPath(artifactsDir, id), FILE));
    } catch {
      // A bad id reads nothing: the thread's own checks word that.
      return [];
    }
  };
  const own = kept(threadId);
  const approve = [...new Set([...kept(from), ...own, ...asked])];
  return {
    approve,
    keep() {
      if (approve.length === own.length) return;
      const file = path.join(threadArtifactsDir(artifactsDir, threadId), FILE);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(approve));
      fs.renameSync(tmp, file);
    },
  };
}

function read(file: string): string[] {
  try {
    const value: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
    return Array.isArray(value) ? value.filter((n): n is string => typeof n === "string" && n.trim() !== "") : [];
  } catch {
    return [];
  }
}

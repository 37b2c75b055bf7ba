import { readdirSync, readFileSync } from "node:fs";

// A process is gone once it no longer exists or is a zombie (in containers, PID 1 may never reap orphans).
function stat(pid: string): { state: string; pgrp: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0], pgrp: Number(fields[2]) };
  } catch {
    return null;
  }
}

/** Live (not zombie) processes in the process group `pgid` (Linux: read from /proc). */
export function groupMembers(pgid: number): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      const s = stat(name);
      return s !== null && s.pgrp === pgid && s.state !== "Z";
    })
    .map(Number);
}

/** Whether the process `pid` exists and is not a zombie. */
export function isRunning(pid: number): boolean {
  const s = stat(String(pid));
  return s !== null && s.state !== "Z";
}

/** Waits (up to `ms`, polling) for `check` to hold; returns whether it did. Killed processes go a moment later, not at once. */
export async function eventually(check: () => boolean, ms = 15_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) if (check()) return true;
  return check();
}

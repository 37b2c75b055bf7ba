import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { READING_WORDS } from "../events/judgement-words.js";
import type { GateBaselineRef } from "../state/types.js";
import type { CheckResult } from "./types.js";

// The ref's names, the one older threads wrote last (gate-baseline.ts).
const REF_NAMES = ["gate-baseline-ref.jsonl", "gate-baseline-ref.json"];

/** The newest thread's recorded baseline in `stateDir` (by the ref file's time), with its thread id; null when none. */
export function latestBaseline(stateDir: string): { thread: string; ref: GateBaselineRef } | null {
  let threads: string[];
  try {
    threads = readdirSync(join(stateDir, "threads"));
  } catch {
    return null;
  }
  let best: { thread: string; file: string; at: number } | null = null;
  for (const thread of threads) {
    for (const name of REF_NAMES) {
      const file = join(stateDir, "threads", thread, name);
      let at: number;
      try {
        at = statSync(file).mtimeMs;
      } catch {
        continue;
      }
      if (!best || at > best.at) best = { thread, file, at };
      break;
    }
  }
  if (!best) return null;
  try {
    return { thread: best.thread, ref: JSON.parse(readFileSync(best.file, "utf8")) as GateBaselineRef };
  } catch {
    return null;
  }
}

/**
 * How each gate's results were read at the latest thread's baseline: a verdict that rests on the exit code alone is a
 * warning (no test is followed one by one). Nothing when no thread recorded one, or an older one did not say.
 */
export function readingResults(stateDir: string): CheckResult[] {
  const latest = latestBaseline(stateDir);
  if (!latest) return [];
  return latest.ref.gates.flatMap((g): CheckResult[] => {
    if (!g.reading) return [];
    const exitOnly = g.reading === "exit-code";
    return [
      {
        id: `gates:reading:${g.name}`,
        title: `gate ${g.name} results`,
        status: exitOnly ? "warn" : "ok",
        detail: `read from ${READING_WORDS[g.reading]} at thread ${latest.thread}'s baseline`,
        ...(exitOnly
          ? {
              fix: "Only the exit code judges this gate: make its runner list each test (a verbose reporter) or write JUnit XML and name it in the gate's reports.",
            }
          : {}),
      },
    ];
  });
}

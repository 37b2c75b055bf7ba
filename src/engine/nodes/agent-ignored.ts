import { rmSync } from "node:fs";
import { join } from "node:path";
import { readRecord, writeRecord } from "../../gates/baseline-record.js";
import { ignoredStamps, MAX_IGNORED_FILES } from "../../git/ignored-stamps.js";
import { threadArtifactsDir } from "../../store/state-dir.js";

/**
 * Files git ignores that an agent created or changed count in the tree a gate judges, like any other: a hidden test
 * listed in .gitignore is a test file, judged apart from the baseline's tests in the clean copy, and a swap of it
 * during a gate run is seen. The user's own ignored files from before the thread (installed dependencies, build
 * output) do not count: the stamps of the ignored files after the baseline ran are kept, and so are yolo's after
 * each of its gate runs (what a gate writes is yolo's work); an ignored file whose stamp differs from the one
 * yolo last kept was written by an agent (or by what an agent started), and stays the agents' for the thread.
 */
interface IgnoredRecord {
  /** Ignored path → its stamp when yolo last looked (after the baseline, then after each gate run). */
  known: Record<string, string>;
  /** Ignored paths an agent created or changed, still present. */
  agent: string[];
  /** Set when the project had more ignored files than yolo stamps: then it cannot tell, and gates fail closed. */
  over?: string;
}

/** What a gate check knows of the agents' ignored files: their paths, or why yolo cannot tell (the gate then blocks). */
export type AgentIgnored = { ok: true; paths: string[] } | { ok: false; reason: string };

/** Where a thread keeps its ignored files' record. */
export function ignoredRecordFile(stateDir: string, threadId: string): string {
  return join(threadArtifactsDir(stateDir, threadId), "ignored-files.jsonl");
}

/** Stamps the project's ignored files once the baseline ran, before any agent could write. */
export async function recordIgnoredBaseline(root: string, file: string, own: (rel: string) => boolean): Promise<void> {
  const walked = await ignoredStamps(root, isCache);
  if (!walked.ok) {
    await writeRecord(file, { known: {}, agent: [], over: overReason(walked.over, walked.folders) } satisfies IgnoredRecord);
    return;
  }
  await writeRecord(file, { known: dropOwn(walked.stamps, own), agent: [] } satisfies IgnoredRecord);
}

/**
 * Before a gate run: the ignored files the agents created or changed (added to the thread's record), those gone
 * dropped from it; and agent-written caches removed (isCache), so no tool takes a result from them.
 * No record (a thread from before this was kept, or no baseline): none.
 */
export async function agentIgnoredBefore(root: string, file: string, own: (rel: string) => boolean): Promise<AgentIgnored> {
  const seen = await agentIgnoredNow(root, file, own);
  if (!seen.ok || !seen.record) return seen;
  const agent = new Set(seen.paths);
  for (const path of seen.paths.filter(isCache)) {
    rmSync(join(root, path), { force: true });
    agent.delete(path);
  }
  const paths = [...agent].sort();
  await writeRecord(file, { ...seen.record, agent: paths } satisfies IgnoredRecord);
  return { ok: true, paths };
}

/** The ignored files the agents created or changed so far, read without changing the record (a check after a step). */
export async function agentIgnoredNow(root: string, file: string, own: (rel: string) => boolean): Promise<AgentIgnored & { record?: IgnoredRecord }> {
  const record = await readRecord<IgnoredRecord>(file);
  if (!record) return { ok: true, paths: [] };
  if (record.over) return { ok: false, reason: record.over };
  const walked = await ignoredStamps(root, isCache);
  if (!walked.ok) return { ok: false, reason: overReason(walked.over, walked.folders) };
  const now = dropOwn(walked.stamps, own);
  const agent = new Set(record.agent.filter((p) => p in now));
  for (const [path, stamp] of Object.entries(now)) if (record.known[path] !== stamp) agent.add(path);
  return { ok: true, paths: [...agent].sort(), record };
}

/** After a gate run: what it wrote where git ignores files becomes known (yolo's own work), the agents' paths kept. */
export async function settleIgnoredAfter(root: string, file: string, own: (rel: string) => boolean): Promise<void> {
  const record = await readRecord<IgnoredRecord>(file);
  if (!record || record.over) return;
  const walked = await ignoredStamps(root, isCache);
  if (!walked.ok) return;
  const agent = new Set(record.agent);
  const known = { ...record.known };
  for (const [path, stamp] of Object.entries(dropOwn(walked.stamps, own))) if (!agent.has(path)) known[path] = stamp;
  await writeRecord(file, { ...record, known } satisfies IgnoredRecord);
}

/**
 * Caches a tool takes results from without checking them against the sources: TypeScript's build info (an
 * incremental `tsc -b` trusts it to skip checking a project), and files under a cache folder (jest's transform
 * cache, babel's, vite's and vitest's). One an agent wrote is removed before a gate runs rather than counted as a gate
 * change: a cache only saves time, the tool rebuilds it from the sources, and a human asked to approve it could not
 * read it anyway.
 */
export function isCache(rel: string): boolean {
  if (rel.endsWith(".tsbuildinfo")) return true;
  return rel
    .split("/")
    .slice(0, -1)
    .some((part) => /cache/i.test(part) || /^jest_/.test(part) || part === ".vite" || part === ".vitest");
}

function dropOwn(stamps: Record<string, string>, own: (rel: string) => boolean): Record<string, string> {
  return Object.fromEntries(Object.entries(stamps).filter(([path]) => !own(path)));
}

function overReason(count: number, folders: string[]): string {
  return (
    `the project has ${count} files git ignores outside installed dependencies (most in ${folders.join(", ")}), more than the ${MAX_IGNORED_FILES} yolo stamps, ` +
    "so it cannot tell which of them an agent wrote, and a gate cannot judge the tree: remove build output and caches the tests do not need (for example `cargo clean`, `rm -rf dist`), then run again"
  );
}

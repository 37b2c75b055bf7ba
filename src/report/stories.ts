import type { Story } from "../state/pipeline.js";
import type { StoryRun, StoryStatus } from "../state/story-runs.js";
import { plural } from "../text/plural.js";

// A thread's stories run in parallel (docs/stories.md), as `yolo threads`, `yolo show` and `yolo report` list them.

/**
 * A thread's story runs in story order: pm's order (a story's id is its `id`, else `s<N>` by position), then
 * any run pm's list no longer names, in the order they were stored. Empty for a thread that ran no stories in
 * parallel (an old thread, or `--parallel 1`), so what lists them is unchanged there.
 */
export function orderedStoryRuns(runs: Record<string, StoryRun> | null | undefined, stories: Story[] | null | undefined): StoryRun[] {
  if (!runs || typeof runs !== "object") return [];
  const all = Object.entries(runs)
    .filter(([, run]) => run && typeof run === "object")
    .map(([id, run]) => ({ ...run, id: run.id ?? id }));
  const position = new Map((stories ?? []).map((s, i) => [s.id ?? `s${i + 1}`, i]));
  const rank = (run: StoryRun, i: number) => position.get(run.id) ?? (stories?.length ?? 0) + i;
  return all
    .map((run, i) => ({ run, i }))
    .sort((a, b) => rank(a.run, a.i) - rank(b.run, b.i) || a.i - b.i)
    .map(({ run }) => run);
}

const ORDER: StoryStatus[] = ["merged", "done", "running", "pending", "failed"];

/** "4 stories: 3 merged, 1 failed". */
export function storyCounts(runs: StoryRun[]): string {
  const counts = ORDER.map((status) => [status, runs.filter((r) => r.status === status).length] as const).filter(([, n]) => n > 0);
  return `${plural(runs.length, "story", "stories")}: ${counts.map(([status, n]) => `${n} ${status}`).join(", ")}`;
}

/** "1,234 tokens in 3 calls" (`~` when part of it is yolo's estimate). */
export function storyUsage(run: StoryRun): string {
  const u = run.usage;
  if (!u) return "no usage recorded";
  return `${u.estimated ? "~" : ""}${formatCount(u.totalTokens)} tokens in ${plural(u.calls, "call")}`;
}

/** A story as text lines for `yolo show` and the sub-rows of `yolo threads`: state, title, files and usage. */
export function storyTextLines(run: StoryRun, indent = ""): string[] {
  const files = run.filesChanged ?? [];
  const out = [`${indent}- ${oneLine(run.id)} ${run.status} — ${truncateEnd(oneLine(run.title ?? ""), 80)}`];
  const facts = [
    run.branch ? `branch ${oneLine(run.branch)}` : null,
    storyUsage(run),
    files.length ? `${plural(files.length, "file")}: ${files.map(oneLine).join(", ")}` : "no files changed",
  ].filter(Boolean);
  out.push(`${indent}  ${facts.join(" · ")}`);
  if (run.dependsOn?.length) out.push(`${indent}  after ${run.dependsOn.map(oneLine).join(", ")}`);
  if (run.conflicts?.length) out.push(`${indent}  merge conflicts resolved in ${run.conflicts.map(oneLine).join(", ")}`);
  if (run.summary) out.push(`${indent}  ${run.status === "failed" ? "why" : "summary"}: ${truncateEnd(oneLine(run.summary), 160)}`);
  return out;
}

// Model-written text (ids, titles, summaries, file names) on one line: no control characters, no line breaks.
function oneLine(s: string): string {
  return String(s)
    .replace(/[\x00-\x1f\x7f-\x9f]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

function truncateEnd(s: string, max: number): string {
  const cps = Array.from(s);
  return cps.length <= max ? s : `${cps.slice(0, max - 1).join("")}…`;
}

function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

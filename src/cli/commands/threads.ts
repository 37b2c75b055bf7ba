import { currentRow, databaseExists, openIndex, threadStoryRuns } from "../../engine/api-light.js";
import { killedReason } from "../wording/run-words.js";
import { limitKindForExitCode } from "../../events/outcome.js";
import { repoIdentity } from "../../git/repo-identity.js";
import type { ThreadRow, ThreadStore } from "../../store/thread-store.js";
import type { ResolvedConfig } from "../../config/schema.js";
import { loadResolvedConfig } from "../load-config.js";
import { latestRow } from "../last-thread.js";
import { escapeControlsInJson } from "../../text/control-chars.js";
import { oneLine, preExistingCount, statusText, truncateEnd } from "../../ui/format.js";
import type { StoryRun } from "../../state/story-runs.js";
import { orderedStoryRuns, storyCounts, storyUsage } from "../../report/stories.js";

/** `yolo threads [--all]`: this repository's threads (every working copy of it), or all in the database, newest first. */
export async function threadsCommand(input: { cwd: string; json: boolean; all?: boolean }): Promise<number> {
  const config = await loadResolvedConfig(input.cwd);
  if (!databaseExists(config)) {
    if (input.json) process.stdout.write("[]\n");
    else process.stdout.write('No threads yet in this project. Start one with: yolo run "what to build"\n');
    return 0;
  }
  const session = await openIndex(config);
  try {
    const listed = await listThreads(session.threads, config, !!input.all);
    const rows = await Promise.all(listed.map((row) => currentRow(session, row, killedReason)));
    // Each thread's stories run in parallel; a thread without any lists exactly as before.
    const stories = new Map<string, StoryRun[]>();
    for (const row of rows) {
      const { runs, stories: planned } = await threadStoryRuns(session, row.id);
      const ordered = orderedStoryRuns(runs, planned);
      if (ordered.length) stories.set(row.id, ordered);
    }
    if (input.json) {
      const withStories = rows.map((row) => (stories.has(row.id) ? { ...row, stories: stories.get(row.id) } : row));
      process.stdout.write(`${escapeControlsInJson(JSON.stringify(withStories, null, 2))}\n`);
      return 0;
    }
    if (!rows.length) {
      process.stdout.write(input.all ? "No threads yet in this database.\n" : "No threads yet in this project.\n");
      return 0;
    }
    const table = input.all ? allTable(rows) : projectTable(rows);
    process.stdout.write(stories.size ? withStoryLines(table, rows, stories) : table);
    // `--last` is this repository's thread updated last: with several, say which (the table's order is not that).
    const last = input.all || rows.length < 2 ? null : latestRow(rows);
    if (last) process.stdout.write(`\n--last (resume, show, report, history) means ${last.id}\n`);
    return 0;
  } finally {
    await session.close();
  }
}

/**
 * This repository's threads (or all). The store lists a thread that ran in this root, or has no repository
 * recorded, whatever the repository's identity; so when a SQLite file holds no other thread, the identity (a
 * `git config` child process, a good part of the command's time) is not needed: every thread is listed.
 */
export async function listThreads(store: ThreadStore, config: ResolvedConfig, all: boolean): Promise<ThreadRow[]> {
  if (all) return store.list({ all: true });
  if (config.database.kind === "sqlite") {
    const every = await store.list({ all: true });
    if (every.every((r) => r.root === config.root || r.repo === null)) return every;
  }
  return store.list({ repo: await repoIdentity(config.root), root: config.root });
}

const updated = (r: ThreadRow) => r.updatedAt.replace("T", " ").slice(0, 19);

/** The status with a limit's kind, e.g. "limit (step limit)". */
function status(r: ThreadRow): string {
  // `baseline: "report"`: a run that passed with tests red before it still red is never a bare "passed".
  const pre = r.status === "passed" ? preExistingCount(r.reason ?? undefined) : 0;
  if (pre) return `passed with ${pre} pre-existing failure${pre === 1 ? "" : "s"}`;
  return statusText(r.status, r.status === "limit" ? limitKindForExitCode(r.exitCode) : null);
}

function projectTable(rows: ThreadRow[]): string {
  const table = rows.map((r) => [r.id, r.mode, status(r), r.currentNode ?? "-", updated(r), truncateEnd(oneLine(r.requirement), 60)]);
  return formatTable(["THREAD", "MODE", "STATUS", "NODE", "UPDATED", "REQUIREMENT"], table);
}

// Who ran each thread and where: the machine, the user and the working copy of its last run.
function allTable(rows: ThreadRow[]): string {
  const table = rows.map((r) => [r.id, r.mode, status(r), updated(r), r.host ?? "-", r.user ?? "-", r.root, truncateEnd(oneLine(r.requirement), 40)]);
  return formatTable(["THREAD", "MODE", "STATUS", "UPDATED", "HOST", "USER", "ROOT", "REQUIREMENT"], table);
}

// Under each thread that ran stories in parallel: a count, then each story's state, title, files and usage.
function withStoryLines(table: string, rows: ThreadRow[], stories: Map<string, StoryRun[]>): string {
  const [head, ...lines] = table.trimEnd().split("\n");
  const out = [head];
  lines.forEach((line, i) => {
    out.push(line);
    const runs = stories.get(rows[i].id);
    if (runs) out.push(`  ${storyCounts(runs)}`, ...aligned(runs.map(storyCells)).map((text) => `    ${text}`));
  });
  return `${out.join("\n")}\n`;
}

// "s1  merged  2 files  1,234 tokens in 3 calls  Add a login form": one story under its thread's row, as columns.
function storyCells(run: StoryRun): string[] {
  const files = run.filesChanged?.length ?? 0;
  return [oneLine(run.id), run.status, `${files} ${files === 1 ? "file" : "files"}`, storyUsage(run), truncateEnd(oneLine(run.title ?? ""), 50)];
}

/** Left-aligned columns separated by two spaces. */
export function formatTable(head: string[], rows: string[][]): string {
  return `${aligned([head, ...rows]).join("\n")}\n`;
}

// Each row's cells padded to their column's widest (the last column is not padded), two spaces apart.
function aligned(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((cells) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join("  "));
}

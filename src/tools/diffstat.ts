/** Above this many cells the exact line diff is skipped for a cheaper multiset estimate. */
const MAX_LCS_CELLS = 4_000_000;

export interface LineStat {
  added: number;
  removed: number;
}

/** Lines added and removed between two versions of a file, as `git diff --stat` would count them. */
export function lineDiffStat(before: string | null, after: string): LineStat {
  const a = splitLines(before ?? "");
  const b = splitLines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const common = midA.length * midB.length <= MAX_LCS_CELLS ? lcsLength(midA, midB) : multisetCommon(midA, midB);
  return { added: midB.length - common, removed: midA.length - common };
}

/** `src/add.js (+12 −3)`: the one-line summary file-writing tools report. */
export function formatChange(rel: string, stat: LineStat): string {
  return `${rel} (+${stat.added} −${stat.removed})`;
}

/** Lines of a text; a trailing newline does not start another line, and "" has none. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

// Classic dynamic programme with one rolling row: O(n·m) time, O(m) memory.
function lcsLength(a: string[], b: string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j];
      row[j] = a[i - 1] === b[j - 1] ? diagonal + 1 : Math.max(row[j], row[j - 1]);
      diagonal = up;
    }
  }
  return row[b.length];
}

// Lines present in both versions regardless of order: an upper bound on the LCS, good enough for huge rewrites.
function multisetCommon(a: string[], b: string[]): number {
  const counts = new Map<string, number>();
  for (const line of a) counts.set(line, (counts.get(line) ?? 0) + 1);
  let common = 0;
  for (const line of b) {
    const n = counts.get(line) ?? 0;
    if (n > 0) {
      common++;
      counts.set(line, n - 1);
    }
  }
  return common;
}

/**
 * pytest node ids as its terminal reporter prints them. An id can hold anything a parametrize value holds — spaces,
 * brackets, ` - ` (`tests/test_x.py::test_y[a - b]`, `test_z[[1, 2]]`) — so an id is read by a scan that balances the
 * brackets of its parameter part, not by a regular expression (bounded: one pass over at most MAX_LINE characters).
 */

/** Longer lines are not read as a test's line: a runner never prints an id that long, a test's own output may. */
export const MAX_LINE = 4000;

/**
 * The node id starting at `start` in `line` and where it ends: path and names up to a space or `[`, then the
 * parameter part up to its balancing `]` (and on to the next space when more follows a `]`). Null when there is none.
 */
export function nodeIdAt(line: string, start: number): { id: string; end: number } | null {
  let i = start;
  while (i < line.length && line[i] !== " " && line[i] !== "[") i++;
  if (i < line.length && line[i] === "[") i = paramEnd(line, i);
  const id = line.slice(start, i);
  return id.length > 0 ? { id, end: i } : null;
}

// From the `[` at `open`: the index after the `]` that balances it, then on to the next space (`[a]b]` stays whole).
// An unbalanced part runs to the last `]` of the line.
function paramEnd(line: string, open: number): number {
  let depth = 0;
  for (let i = open; i < line.length; i++) {
    if (line[i] === "[") depth++;
    else if (line[i] === "]") depth--;
    if (depth === 0) {
      let end = i + 1;
      while (end < line.length && line[end] !== " ") end++;
      return end;
    }
  }
  const last = line.lastIndexOf("]");
  return last > open ? last + 1 : line.length;
}

/** An id of a test (`file.py::name`), not of a file or folder that failed to collect. */
export const isTestId = (id: string) => id.includes("::");

/**
 * What a collection error (`ERROR tests/test_x.py`, `ERROR tests`) stands for: every test in that file (`…py::`) or
 * folder (`…/`).
 */
export function collectedUnder(id: string): string {
  return id.endsWith(".py") ? `${id}::` : `${id.replace(/\/+$/, "")}/`;
}

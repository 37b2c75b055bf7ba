/**
 * Fences untrusted text (the requirement, test output, human answers) as data with its source, so
 * instructions inside it are not mistaken for yolo's. The fence is longer than any backtick run inside.
 */
export function fence(source: string, text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = "`".repeat(longest + 1);
  return `<data source="${source}">\n${ticks}\n${text}\n${ticks}\n</data>`;
}

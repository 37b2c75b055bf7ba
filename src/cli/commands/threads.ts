import { existsSync } from "node:fs";
import { openSession } from "../../engine/session.js";
import { loadResolvedConfig } from "../prepare.js";
import { oneLine, truncateEnd } from "../../ui/format.js";

/** `yolo threads`: this project's threads, newest first. */
export async function threadsCommand(input: { cwd: string; json: boolean }): Promise<number> {
  const config = await loadResolvedConfig(input.cwd);
  if (!existsSync(config.dbPath)) {
    if (input.json) process.stdout.write("[]\n");
    else process.stdout.write("No threads yet in this project. Start one with: yolo run \"what to build\"\n");
    return 0;
  }
  const session = openSession(config);
  try {
    const rows = session.index.list();
    if (input.json) {
      process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      return 0;
    }
    if (!rows.length) {
      process.stdout.write("No threads yet in this project.\n");
      return 0;
    }
    const table = rows.map((r) => [
      r.id,
      r.mode,
      r.status,
      r.currentNode ?? "-",
      r.updatedAt.replace("T", " ").slice(0, 19),
      truncateEnd(oneLine(r.requirement), 60),
    ]);
    process.stdout.write(formatTable(["THREAD", "MODE", "STATUS", "NODE", "UPDATED", "REQUIREMENT"], table));
    return 0;
  } finally {
    session.close();
  }
}

/** Left-aligned columns separated by two spaces. */
export function formatTable(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join("  ");
  return `${[line(head), ...rows.map(line)].join("\n")}\n`;
}

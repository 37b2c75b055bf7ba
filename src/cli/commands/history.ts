import { databaseExists, databaseName, loadStoredHistory, openIndex } from "../../engine/api-light.js";
import { loadResolvedConfig } from "../load-config.js";
import { escapeControlsInJson } from "../../text/control-chars.js";
import { noDatabaseYet } from "../thread-home.js";
import { formatTable } from "./threads.js";
import { oneLine, truncateEnd } from "../../ui/format.js";

/** `yolo history <thread>`: every checkpoint, oldest first; a step number is what `resume --from` takes. */
export async function historyCommand(input: { cwd: string; thread: string; json: boolean }): Promise<number> {
  const config = await loadResolvedConfig(input.cwd);
  if (!databaseExists(config)) throw noDatabaseYet(input.thread, databaseName(config));
  const session = await openIndex(config);
  try {
    const history = await (await loadStoredHistory()).readThreadHistory(config, session, input.thread);
    if (input.json) {
      process.stdout.write(`${escapeControlsInJson(JSON.stringify(history, null, 2))}\n`);
      return 0;
    }
    const rows = history.map((h) => [
      String(h.step),
      h.node,
      h.createdAt.replace("T", " ").slice(0, 19),
      h.next.join(", ") || "-",
      truncateEnd(oneLine(h.summary), 70),
    ]);
    process.stdout.write(formatTable(["STEP", "NODE", "TIME", "NEXT", "SUMMARY"], rows));
    process.stdout.write(`\nRe-run from a step on a new thread: yolo resume ${input.thread} --from <step> [--model <name>]\n`);
    return 0;
  } finally {
    await session.close();
  }
}

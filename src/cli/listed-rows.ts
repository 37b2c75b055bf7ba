import { currentRow } from "../engine/api-light.js";
import type { ThreadIndex } from "../store/thread-index.js";
import type { ThreadRow } from "../store/thread-store.js";
import { killedReason } from "./wording/run-words.js";

/**
 * `yolo serve`'s list of rows, as `yolo threads` reads them, without reading 10,000 rows again while nothing was
 * written: the rows are kept with the file's data version (SQLite's, moved by any commit of any process) and read
 * again when it moved. A running row's liveness is not in the file (a killed process writes nothing), so every row is
 * still passed through currentRow each time. A store without a data version (PostgreSQL) is read every time.
 */
export function listedRows(index: ThreadIndex, read: () => Promise<ThreadRow[]>): () => Promise<ThreadRow[]> {
  let kept: { version: string; rows: ThreadRow[] } | null = null;
  return async () => {
    // Asked before the rows: a commit between the two makes the next call read them again, never the other way.
    const version = index.dataVersion?.() ?? null;
    const rows = version !== null && kept?.version === version ? kept.rows : await read();
    kept = version === null ? null : { version, rows };
    return Promise.all(rows.map((row) => currentRow(index, row, killedReason)));
  };
}

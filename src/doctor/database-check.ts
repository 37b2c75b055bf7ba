import { accessSync, constants, existsSync } from "node:fs";
import { dirname } from "node:path";
import type { CheckResult, DoctorCheck } from "./types.js";

/** Whether the checkpoint database opens and is writable (SQLite file or PostgreSQL), without creating one. */
export const databaseCheck: DoctorCheck = {
  id: "database",
  async run({ config }): Promise<CheckResult[]> {
    const title = "database";
    const db = config.database;
    try {
      if (db.kind === "postgres") {
        const { openPostgresPool, describePostgresUrl } = await import("../store/pg-pool.js");
        const pool = await openPostgresPool(db.url);
        await pool.end();
        return [{ id: "database", title, status: "ok", detail: `PostgreSQL ${describePostgresUrl(db.url)} answers` }];
      }
      if (!existsSync(db.path)) {
        const dir = nearestExisting(dirname(db.path));
        accessSync(dir, constants.W_OK);
        return [{ id: "database", title, status: "ok", detail: `${db.path} will be created on the first run (${dir} is writable)` }];
      }
      const { openDatabase } = await import("../store/db.js");
      openDatabase(db.path).close();
      return [{ id: "database", title, status: "ok", detail: `${db.path} opens and is writable` }];
    } catch (error) {
      return [
        {
          id: "database",
          title,
          status: "fail",
          detail: (error as Error).message.split("\n")[0],
          fix: "Fix the database named above, or choose another with YOLO_DB / YOLO_DATABASE_URL.",
          fixFact: { kind: "database-unusable" },
        },
      ];
    }
  },
};

function nearestExisting(dir: string): string {
  let cur = dir;
  while (!existsSync(cur) && dirname(cur) !== cur) cur = dirname(cur);
  return cur;
}

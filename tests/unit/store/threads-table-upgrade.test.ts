import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { closeDatabase, openDatabase } from "../../../src/store/db.js";
import { SqliteThreadStore } from "../../../src/store/sqlite-threads.js";
import { tempDir } from "../../helpers/per-test.js";

// yolo_threads gained columns after its first version: a file made then gets them when it is opened, also when several
// processes (a run and `yolo threads`, two runs) open it at the same moment — the check and the ALTERs hold the lock.

const DIST = fileURLToPath(new URL("../../../dist/store/", import.meta.url));

function olderFile(dir: string): string {
  const path = join(dir, "yolo.db");
  const db = openDatabase(path);
  db.exec(`CREATE TABLE yolo_threads (id TEXT PRIMARY KEY, requirement TEXT NOT NULL, status TEXT NOT NULL, current_node TEXT,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, root TEXT NOT NULL, model TEXT NOT NULL, exit_code INTEGER, reason TEXT)`);
  db.prepare("INSERT INTO yolo_threads VALUES ('old00001', 'r', 'passed', NULL, 'x', 'x', '/', 'm', 0, NULL)").run();
  closeDatabase(db);
  return path;
}

// Opens the file in another process at the moment `at` (all of them at once, their modules loaded); resolves with its
// exit code and what it wrote to stderr.
function openElsewhere(path: string, at: number): Promise<{ code: number | null; stderr: string }> {
  const script = `const { openDatabase } = await import(${JSON.stringify(join(DIST, "db.js"))});
const { SqliteThreadStore } = await import(${JSON.stringify(join(DIST, "sqlite-threads.js"))});
while (Date.now() < Number(process.argv[2]));
new SqliteThreadStore(openDatabase(process.argv[1]));`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script, path, String(at)], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += String(d);
    });
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe("the thread table of an older database", () => {
  it("gets the columns added since, and keeps its threads", async ({ onTestFinished }) => {
    const path = olderFile(tempDir(onTestFinished));
    const db = openDatabase(path);
    try {
      const threads = new SqliteThreadStore(db);
      expect(await threads.get("old00001")).toMatchObject({ id: "old00001", status: "passed", startCommit: null, unsettledUsage: null });
      await threads.create({ id: "new00001", requirement: "r", model: "m", root: "/", startCommit: "abc", branch: "yolo/new00001" });
      expect(await threads.get("new00001")).toMatchObject({ startCommit: "abc", branch: "yolo/new00001" });
    } finally {
      closeDatabase(db);
    }
  });

  it("is upgraded once when several processes open it at the same moment", { timeout: 60_000 }, async ({ onTestFinished }) => {
    for (let round = 0; round < 6; round++) {
      const path = olderFile(tempDir(onTestFinished));
      const at = Date.now() + 1500;
      const results = await Promise.all(Array.from({ length: 4 }, () => openElsewhere(path, at)));
      expect(results, `round ${round}`).toEqual(Array.from({ length: 4 }, () => ({ code: 0, stderr: "" })));
    }
  });
});

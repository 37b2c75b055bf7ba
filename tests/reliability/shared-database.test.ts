import { execa } from "execa";
import { createRequire } from "node:module";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { handoff } from "../helpers/director.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { BACKENDS, useTestDatabase, withClient } from "../helpers/postgres.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

// Two processes sharing one database, 50 runs each at the same time (a one-agent workflow through the built
// engine against the scripted model): no SQLITE_BUSY or other failure, all 100 threads listed as passed, and
// SQLite's integrity_check ok. The same on PostgreSQL, where a team's runners share one database.
const RUNS_PER_PROCESS = 50;
const WORKER = fileURLToPath(new URL("../helpers/shared-db-worker.mjs", import.meta.url));

const cleanups = cleanupsAfterEach("lastFirst");

interface WorkerReport {
  passed: number;
  failures: { thread: string; status: string; reason: string }[];
}

describe.each(BACKENDS)("two processes sharing one database (%s)", (backend) => {
  const pg = useTestDatabase(backend);
  it(`${RUNS_PER_PROCESS} runs each, concurrently: no busy errors, every thread listed and passed, integrity ok`, async () => {
    const project = makeProject();
    const mock = await startMockOpenAI(() => handoff({ summary: "nothing to change", files_changed: [] }));
    cleanups.push(project.cleanup, () => mock.close());
    const started = performance.now();
    const workers = ["a", "b"].map((prefix) =>
      execa(process.execPath, [WORKER, project.root, mock.url, prefix, String(RUNS_PER_PROCESS)], {
        reject: false,
        timeout: 150_000,
        encoding: "utf8",
        env: { ...pg.env() },
      }),
    );
    const outputs = await Promise.all(workers);
    const seconds = (performance.now() - started) / 1000;
    const reports = outputs.map((out) => {
      expect(out.exitCode, `${out.stderr}\n${out.stdout}`).toBe(0);
      return JSON.parse(String(out.stdout).trim().split("\n").at(-1)!) as WorkerReport;
    });
    const failures = reports.flatMap((r) => r.failures);
    expect(failures).toEqual([]);
    expect(reports.map((r) => r.passed)).toEqual([RUNS_PER_PROCESS, RUNS_PER_PROCESS]);

    if (backend === "postgres") {
      const threads = await withClient(pg.url(), async (c) => (await c.query<{ id: string; status: string }>("SELECT id, status FROM yolo_threads")).rows);
      expect(threads).toHaveLength(2 * RUNS_PER_PROCESS);
      expect(threads.every((t) => t.status === "passed")).toBe(true);
    } else {
      const Database = createRequire(import.meta.url)("better-sqlite3");
      const db = new Database(path.join(project.root, ".yolo", "yolo.db"), { readonly: true });
      try {
        const threads = db.prepare("SELECT id, status FROM yolo_threads ORDER BY id").all() as { id: string; status: string }[];
        expect(threads).toHaveLength(2 * RUNS_PER_PROCESS);
        expect(threads.every((t) => t.status === "passed")).toBe(true);
        expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      } finally {
        db.close();
      }
    }
    console.log(`shared-database (${backend}): ${2 * RUNS_PER_PROCESS} runs by 2 processes in ${seconds.toFixed(1)} s, 0 failures`);
  }, 180_000);
});

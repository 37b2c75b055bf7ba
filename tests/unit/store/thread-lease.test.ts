import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStorage, type Storage } from "../../../src/store/open-storage.js";
import { BACKENDS, useTestDatabase, withClient } from "../../helpers/postgres.js";
import { tempDir } from "../../helpers/per-test.js";

const require = createRequire(import.meta.url);

// The per-thread lease behaves the same on SQLite and PostgreSQL.
describe.each(BACKENDS)("per-thread lease (%s)", (backend) => {
  const pg = useTestDatabase(backend);
  let dir: string;
  const open: Storage[] = [];
  const threads = async () => {
    const s = await openStorage(backend === "postgres" ? { kind: "postgres", url: pg.url() } : { kind: "sqlite", path: join(dir, "yolo.db") });
    open.push(s);
    return s.threads;
  };
  // Rewrites the lease row as if another process held it.
  const forge = async (host: string, pid: number, expiresInMs: number) => {
    if (backend === "postgres") {
      await withClient(pg.url(), (c) =>
        c.query("UPDATE yolo_leases SET host = $1, pid = $2, expires_at = clock_timestamp() + $3 * interval '1 millisecond'", [host, pid, expiresInMs]),
      );
    } else {
      const Database = require("better-sqlite3") as new (p: string) => { prepare(s: string): { run(...a: unknown[]): void }; close(): void };
      const db = new Database(join(dir, "yolo.db"));
      db.prepare("UPDATE yolo_leases SET host = ?, pid = ?, expires_at = ?").run(host, pid, Date.now() + expiresInMs);
      db.close();
    }
  };
  beforeEach(({ onTestFinished }) => {
    dir = tempDir(onTestFinished, "yolo-lease-");
  });
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
  });

  it("refuses a second holder of a live lease, and lets it in once released", async () => {
    const a = await threads();
    const b = await threads();
    const lease = await a.acquireLease("t1");
    await expect(b.acquireLease("t1")).rejects.toThrow(/being run by another yolo process/);
    expect((await b.acquireLease("t2")).threadId).toBe("t2");
    await lease.release();
    expect((await b.acquireLease("t1")).threadId).toBe("t1");
  });

  it("says a thread is live only while a live holder's lease is unexpired (a killed run's row is not)", async () => {
    const a = await threads();
    const b = await threads();
    expect(await b.isLive("t1")).toBe(false);
    const lease = await a.acquireLease("t1");
    expect(await b.isLive("t1")).toBe(true);
    await forge(hostname(), 2 ** 22 + 1, 60_000); // a holder on this host whose process is gone
    expect(await b.isLive("t1")).toBe(false);
    await forge("another-host", 1, 60_000); // on another host only the expiry tells
    expect(await b.isLive("t1")).toBe(true);
    await forge("another-host", 1, -1);
    expect(await b.isLive("t1")).toBe(false);
    await lease.release();
  });

  it("a holder that keeps renewing keeps its lease past the expiry", async () => {
    // Renewed every third of its 600 ms: only a stall of 600 ms on a busy machine could let it lapse, not 200 ms.
    const lease = await (await threads()).acquireLease("t1", 600);
    await new Promise((r) => setTimeout(r, 1500));
    await expect((await threads()).acquireLease("t1", 600)).rejects.toThrow(/being run by another yolo process/);
    await lease.release();
  });

  it("takes over an expired lease of a holder on another host", async () => {
    const a = await threads();
    const held = await a.acquireLease("t1");
    await held.release().then(() => a.acquireLease("t1"));
    // A holder on another machine: only its expiry tells it is gone.
    // Expiries far from the moment of the check, so a slow connection on a busy machine cannot cross them.
    await forge("elsewhere", 1, 1_000);
    await expect((await threads()).acquireLease("t1")).rejects.toThrow(/pid 1 on elsewhere.*retry in 1s/);
    await forge("elsewhere", 1, -1);
    expect((await (await threads()).acquireLease("t1")).threadId).toBe("t1");
  });

  it("a holder that died but was not reaped yet (a zombie, as under a container's non-reaping first process) is dead", async () => {
    const b = await threads();
    const lease = await b.acquireLease("t1");
    // `sleep 0.1` is a child of the shell, which becomes `sleep 30` (exec) and never reaps it: a zombie for 30 s.
    const parent = spawn("sh", ["-c", "sleep 0.1 & echo $!; exec sleep 30"], { stdio: ["ignore", "pipe", "inherit"] });
    const [line] = (await once(parent.stdout!, "data")) as [Buffer];
    const zombie = Number(String(line).trim());
    try {
      await new Promise((r) => setTimeout(r, 400));
      // The control: the process still answers a signal, and the kernel says it is a zombie.
      expect(() => process.kill(zombie, 0)).not.toThrow();
      expect(readFileSync(`/proc/${zombie}/stat`, "utf8")).toMatch(/\) Z /);
      await forge(hostname(), zombie, 60_000);
      expect(await b.isLive("t1")).toBe(false);
      expect((await (await threads()).acquireLease("t1")).threadId).toBe("t1");
    } finally {
      parent.kill("SIGKILL");
      await lease.release();
    }
  });

  it("a holder killed with SIGKILL: refused while it lives, taken over as soon as it is dead", async () => {
    const mine = await threads();
    await (await mine.acquireLease("t1")).release();
    // A child process on this host takes the lease row for an hour, then is killed.
    const script =
      backend === "postgres"
        ? `const pg = require(${JSON.stringify(require.resolve("pg"))});
           const c = new pg.Client({ connectionString: ${JSON.stringify(pg.url())} });
           c.connect().then(() => c.query("INSERT INTO yolo_leases VALUES ('t1', 'child', $1, $2, clock_timestamp() + interval '1 hour') ON CONFLICT (thread_id) DO UPDATE SET holder = 'child', host = $1, pid = $2, expires_at = EXCLUDED.expires_at", [require("os").hostname(), process.pid]))
             .then(() => { console.log("held"); setInterval(() => {}, 1000); });`
        : `const Database = require(${JSON.stringify(require.resolve("better-sqlite3"))});
           const db = new Database(${JSON.stringify(join(dir, "yolo.db"))});
           db.prepare("INSERT OR REPLACE INTO yolo_leases VALUES ('t1', 'child', ?, ?, ?)").run(require("os").hostname(), process.pid, Date.now() + 3600000);
           console.log("held"); setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    await once(child.stdout!, "data");
    const started = Date.now();
    await expect((await threads()).acquireLease("t1")).rejects.toThrow(new RegExp(`pid ${child.pid} on ${hostname()}`));
    child.kill("SIGKILL");
    await once(child, "exit");
    expect((await (await threads()).acquireLease("t1")).threadId).toBe("t1");
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

import { spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../../src/store/db.js";
import { acquireLease } from "../../../src/store/lease.js";

let dir: string;
let file: string;
const open: Database[] = [];
const db = () => {
  const d = openDatabase(file);
  open.push(d);
  return d;
};

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "yolo-lease-"));
  file = path.join(dir, "yolo.db");
});
afterEach(() => {
  for (const d of open.splice(0)) if (d.open) d.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("per-thread lease", () => {
  it("refuses a second holder of a live lease, and lets it in once released", () => {
    const a = db();
    const b = db();
    const lease = acquireLease(a, "t1");
    expect(() => acquireLease(b, "t1")).toThrow(/being run by another yolo process/);
    expect(acquireLease(b, "t2").threadId).toBe("t2");
    lease.release();
    expect(acquireLease(b, "t1").threadId).toBe("t1");
  });

  it("takes over an expired lease of a holder on another host", async () => {
    const a = db();
    acquireLease(a, "t1");
    a.prepare("UPDATE yolo_leases SET host = 'elsewhere', pid = 1, expires_at = ?").run(Date.now() + 150);
    expect(() => acquireLease(db(), "t1")).toThrow(/retry in 1s/);
    await new Promise((r) => setTimeout(r, 200));
    expect(acquireLease(db(), "t1").threadId).toBe("t1");
  });

  it("a holder killed with SIGKILL: refused while it lives, taken over as soon as it is dead", async () => {
    db();
    const script = `
      const Database = require(${JSON.stringify(require.resolve("better-sqlite3"))});
      const db = new Database(${JSON.stringify(file)});
      db.exec("CREATE TABLE IF NOT EXISTS yolo_leases (thread_id TEXT PRIMARY KEY, holder TEXT NOT NULL, host TEXT NOT NULL, pid INTEGER NOT NULL, expires_at INTEGER NOT NULL)");
      db.prepare("INSERT OR REPLACE INTO yolo_leases VALUES ('t1', 'child', ?, ?, ?)").run(require("os").hostname(), process.pid, Date.now() + 3600000);
      console.log("held");
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    await once(child.stdout!, "data");
    const started = Date.now();
    expect(() => acquireLease(db(), "t1")).toThrow(/being run by another yolo process/);
    child.kill("SIGKILL");
    await once(child, "exit");
    expect(acquireLease(db(), "t1").threadId).toBe("t1");
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

import { execFileSync } from "node:child_process";
import { existsSync, openSync, readFileSync, writeFileSync, writeSync, closeSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { YoloError } from "../../../src/errors.js";
import { closeDatabase, openDatabase } from "../../../src/store/db.js";
import { tempDir } from "../../helpers/per-test.js";

// openDatabase skips `PRAGMA quick_check` for a file closeDatabase closed cleanly and that nothing has touched since;
// anything else is checked as before. Which statements ran is seen at the driver's compiled addon (the one every copy
// of its JavaScript uses), so the test watches what openDatabase really did.
const require = createRequire(import.meta.url);
const addon = require(join(dirname(require.resolve("better-sqlite3/package.json")), "build", "Release", "better_sqlite3.node")) as {
  Database: { prototype: { prepare(sql: string, ...rest: unknown[]): unknown } };
};
const prepared: string[] = [];
const original = addon.Database.prototype.prepare;
beforeAll(() => {
  addon.Database.prototype.prepare = function (sql: string, ...rest: unknown[]) {
    prepared.push(sql);
    return original.call(this, sql, ...rest);
  };
});
afterAll(() => {
  addon.Database.prototype.prepare = original;
});

let path: string;
beforeEach(({ onTestFinished }) => {
  path = join(tempDir(onTestFinished, "yolo-closed-note-"), "yolo.db");
  const db = openDatabase(path);
  db.exec("CREATE TABLE t (x TEXT); INSERT INTO t VALUES ('one');");
  closeDatabase(db);
  prepared.length = 0;
});

const checked = () => prepared.some((sql) => /quick_check/i.test(sql));
function reopen(): void {
  prepared.length = 0;
  closeDatabase(openDatabase(path));
}

describe("the note a clean close leaves beside the database", () => {
  it("lets the next open skip the integrity check, and each clean close renews it", () => {
    expect(existsSync(`${path}-closed`)).toBe(true);
    reopen();
    expect(checked()).toBe(false);
    const db = openDatabase(path);
    db.prepare("INSERT INTO t VALUES ('two')").run();
    closeDatabase(db);
    reopen();
    expect(checked()).toBe(false);
  });

  it("a file changed by anything else since is checked again", () => {
    // Another program (here the driver without yolo's close) writes to it.
    const Database = require("better-sqlite3") as new (p: string) => { exec(sql: string): void; close(): void };
    const other = new Database(path);
    other.exec("INSERT INTO t VALUES ('elsewhere')");
    other.close();
    reopen();
    expect(checked()).toBe(true);
  });

  it("a process killed with the file open (its WAL left beside it) is checked again", () => {
    const driver = require.resolve("better-sqlite3");
    const script = `const D = require(${JSON.stringify(driver)}); const db = new D(${JSON.stringify(path)}); db.exec("INSERT INTO t VALUES ('x')"); process.kill(process.pid, "SIGKILL");`;
    expect(() => execFileSync(process.execPath, ["-e", script])).toThrow();
    expect(existsSync(`${path}-wal`)).toBe(true);
    reopen();
    expect(checked()).toBe(true);
  });

  it("a note that does not match (written by hand, or another file's) is no reason to skip", () => {
    writeFileSync(`${path}-closed`, "0:0:0:0:0");
    reopen();
    expect(checked()).toBe(true);
  });

  it("damage written into the file after the note is found (the changed file is checked, not trusted)", () => {
    const size = readFileSync(path).length;
    expect(size).toBeGreaterThan(4096);
    // The second page (the table's, from its header on) overwritten with garbage, as a disk or another program might.
    const fd = openSync(path, "r+");
    writeSync(fd, Buffer.alloc(1024, 0xa5), 0, 1024, 4096);
    closeSync(fd);
    let error: unknown = null;
    try {
      reopen();
    } catch (e) {
      error = e;
    }
    expect(checked()).toBe(true);
    expect(error).toBeInstanceOf(YoloError);
    expect((error as YoloError).code).toBe("storage");
  });
});

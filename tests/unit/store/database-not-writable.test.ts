import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { openDatabase, storageFault } from "../../../src/store/db.js";
import { tempDir } from "../../helpers/per-test.js";
import { requireTool } from "../../helpers/requires.js";

let dir: string;
beforeEach(({ onTestFinished }) => {
  dir = tempDir(onTestFinished, "yolo-db-ro-");
});

// As root, chmod does not stop a write: the check then runs as `nobody` through runuser (required as root).

describe("a database yolo cannot write", () => {
  it("maps full, read-only and failing disks to a storage error naming the file; other errors are not storage faults", () => {
    const path = join(dir, "yolo.db");
    const fault = (code: string) => storageFault(Object.assign(new Error("sqlite says no"), { code }), path)?.message;
    expect(fault("SQLITE_FULL")).toMatch(
      new RegExp(`^yolo's database ${path} cannot be written: the disk is full \\(sqlite says no\\)\\. Nothing saved in it is lost`),
    );
    expect(fault("SQLITE_IOERR_WRITE")).toContain("the disk reported an I/O error");
    expect(fault("EDQUOT")).toContain("the disk quota is used up");
    expect(storageFault(new Error("wrapped", { cause: Object.assign(new Error("x"), { code: "ENOSPC" }) }), path)?.code).toBe("storage");
    expect(fault("SQLITE_CONSTRAINT_PRIMARYKEY")).toBeUndefined();
    expect(storageFault(new Error("plain"), path)).toBeNull();
  });

  it("refuses at open a file SQLite could only open read-only, naming it, and leaves it as it was", (ctx) => {
    if (process.getuid?.() === 0) requireTool(ctx, "runuser", "as root, opening a read-only file as nobody");
    const path = join(dir, "yolo.db");
    openDatabase(path).close();
    chmodSync(path, 0o444);
    const before = readFileSync(path);
    if (process.getuid?.() !== 0) {
      expect(() => openDatabase(path)).toThrow(`yolo's database ${path} cannot be written: the file is not writable`);
      expect(readFileSync(path).equals(before)).toBe(true);
      return;
    }
    chownSync(path, 65534, 65534);
    chmodSync(dir, 0o777);
    const script = `import(${JSON.stringify(new URL("../../../src/store/db.ts", import.meta.url).pathname)}).then((m) => { try { m.openDatabase(${JSON.stringify(path)}); console.log("opened"); } catch (e) { console.log(e.message); } })`;
    const tsx = join(process.cwd(), "node_modules", ".bin", "tsx");
    const out = execFileSync("runuser", ["-u", "nobody", "--", tsx, "-e", script], { encoding: "utf8" });
    expect(out).toContain(`yolo's database ${path} cannot be written: the file is not writable (attempt to write a readonly database)`);
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});

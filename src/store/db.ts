import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { YoloError } from "../errors.js";
import { refuseLinks, STATE_DIR_NAME } from "./state-dir.js";
import { rememberDatabaseFile } from "./db-identity.js";

/** The slice of a better-sqlite3 statement yolo uses (the package ships no types of its own). */
export interface Statement {
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

/** The slice of a better-sqlite3 `Database` yolo uses; the object is the real one, so it can go to SqliteSaver. */
export interface Database {
  readonly name: string;
  readonly open: boolean;
  prepare(sql: string): Statement;
  exec(sql: string): Database;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  transaction<F extends (...args: never[]) => unknown>(fn: F): F;
  close(): Database;
}

type DatabaseConstructor = new (path: string, options?: { fileMustExist?: boolean; timeout?: number; nativeBinding?: string }) => Database;

// better-sqlite3 is CommonJS without type declarations here; require() keeps both ESM and the type checker happy. A
// bundle's own require where there is one: the light CLI (scripts/build.mjs) bundles the driver's JavaScript, which
// then costs no module loading; the ES module chunks define one in their banner; run from source, this module's own.
let databaseClass: DatabaseConstructor | undefined;
function sqlite(): DatabaseConstructor {
  databaseClass ??= (typeof require === "function" ? require("better-sqlite3") : createRequire(import.meta.url)("better-sqlite3")) as DatabaseConstructor;
  return databaseClass;
}

let addon: string | null | undefined;
/**
 * The driver's compiled addon where npm (or prebuild-install) puts it, passed as `nativeBinding`: the driver then skips
 * the `bindings` package's search for it (several milliseconds of every command that opens the database). Null when
 * it is elsewhere: the driver searches as usual.
 */
function nativeBinding(): string | null {
  if (addon !== undefined) return addon;
  try {
    const file = join(dirname(createRequire(import.meta.url).resolve("better-sqlite3/package.json")), "build", "Release", "better_sqlite3.node");
    addon = existsSync(file) ? file : null;
  } catch {
    addon = null;
  }
  return addon;
}

/**
 * Loads the SQLite driver and its addon without opening anything, so that a start can load them while it waits for
 * its early reads (openDatabase then finds them loaded). A driver that cannot load is left for openDatabase to report.
 */
export function loadSqliteDriver(): void {
  try {
    sqlite();
    const binding = nativeBinding();
    if (binding) (typeof require === "function" ? require : createRequire(import.meta.url))(binding);
  } catch {
    // openDatabase loads it again and reports the failure where it always did.
  }
}

/**
 * Opens (creating if needed) the SQLite file at `path` in WAL mode with full fsync, and checks it.
 * A file that cannot be opened or fails `PRAGMA quick_check` is left untouched and reported as a "storage" error.
 */
export function openDatabase(path: string): Database {
  // A link at the database (or its WAL files, or yolo's own folder holding it) would put yolo's tables elsewhere.
  refuseLinks([...(basename(dirname(path)) === STATE_DIR_NAME ? [dirname(path)] : []), path, `${path}-wal`, `${path}-shm`]);
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (cause) {
    throw storageError(path, `its folder cannot be created (${messageOf(cause)})`, "Make sure the folder is writable", cause);
  }
  // Asked before opening: the connection makes its own WAL file beside the database.
  const unchanged = closedCleanSince(path);
  let db: Database;
  try {
    const binding = nativeBinding();
    db = new (sqlite())(path, binding ? { timeout: 5000, nativeBinding: binding } : { timeout: 5000 });
  } catch (cause) {
    throw storageError(path, `it cannot be opened (${messageOf(cause)})`, "Make sure the file and its folder are readable and writable", cause);
  }
  try {
    db.pragma("busy_timeout = 5000");
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = FULL");
    const check = unchanged ? "ok" : db.pragma("quick_check", { simple: true });
    if (check !== "ok") {
      throw storageError(path, `it failed an integrity check (${String(check)})`, recoveryHint(path));
    }
    // SQLite quietly opens a file it cannot write read-only; yolo must write, so find out now rather than mid-run.
    writeProbe(db);
    rememberDatabaseFile(path);
    immediateTransactions(db);
  } catch (cause) {
    db.close();
    if (cause instanceof YoloError) throw cause;
    const fault = storageFault(cause, path);
    if (fault) throw fault;
    throw storageError(path, `it is not a usable SQLite database (${messageOf(cause)})`, recoveryHint(path), cause);
  }
  return db;
}

/**
 * Closes a database opened by openDatabase and, when this was the file's last connection (SQLite has folded the WAL
 * back into it and removed it), notes the file as it is now beside it (`<file>-closed`): the next open skips
 * `PRAGMA quick_check` while the file is still exactly that one. The check reads the whole file on every command
 * (its cost per megabyte: docs/performance.md), to find damage that a crash or another program left; a
 * file closed cleanly by yolo and untouched since has neither. Any change since (its size, inode, modification or
 * change time), a WAL left beside it, or no note, and the file is checked as before.
 */
export function closeDatabase(db: Database): void {
  const path = db.name;
  db.close();
  if (existsSync(`${path}-wal`)) return;
  try {
    const key = fileKey(path);
    if (key) writeFileSync(`${path}-closed`, key);
  } catch {
    // No note: the next open checks the file, as it always did.
  }
}

// Whether the file is exactly as closeDatabase last left it, with no WAL beside it.
function closedCleanSince(path: string): boolean {
  if (existsSync(`${path}-wal`)) return false;
  try {
    const key = fileKey(path);
    return key !== null && readFileSync(`${path}-closed`, "utf8") === key;
  } catch {
    return false;
  }
}

// The file's identity and last change, to the nanosecond the file system keeps.
function fileKey(path: string): string | null {
  try {
    const s = statSync(path, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return null;
  }
}

/**
 * Runs `write` with its commit left unsynced (`synchronous = NORMAL`), then goes back to FULL. In WAL mode the
 * commit is in the WAL, which a killed process cannot lose; the next FULL commit syncs the WAL and it with it.
 * Per-step progress notes cost an fsync each otherwise, twice the checkpoint's own (better-sqlite3 is synchronous,
 * so nothing else runs on the connection in between).
 */
export function withoutFsync<T>(db: Database, write: () => T): T {
  const sync = syncStatements(db);
  sync.normal.run();
  try {
    return write();
  } finally {
    sync.full.run();
  }
}

// The two pragmas, prepared once per connection: `db.pragma()` prepares its statement on every call.
const syncPragmas = new WeakMap<Database, { normal: Statement; full: Statement }>();
function syncStatements(db: Database): { normal: Statement; full: Statement } {
  let pair = syncPragmas.get(db);
  if (!pair) {
    pair = { normal: db.prepare("PRAGMA synchronous = NORMAL"), full: db.prepare("PRAGMA synchronous = FULL") };
    syncPragmas.set(db, pair);
  }
  return pair;
}

/**
 * A "storage" YoloError naming the database when `error` (or its cause) is the disk refusing a write: full,
 * read-only, out of quota or failing. Otherwise null. SQLite rolls back the failed write, so the last completed
 * step is still in the file; the message says how to continue.
 */
export function storageFault(error: unknown, path: string): YoloError | null {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof YoloError && e.code === "storage") return e;
    const code = String((e as { code?: unknown }).code ?? "");
    const found = FAULTS.find(([pattern]) => pattern.test(code))?.[1];
    const what = found === NOT_WRITABLE || found === READ_ONLY ? (whyNotWritable(path) ?? found) : found;
    if (what) {
      const said = `yolo's database ${path} cannot be written: ${what} (${messageOf(e)}). Nothing saved in it is lost: free space or make it writable, then run again`;
      return new YoloError("storage", `${said}; a stopped thread continues from its last completed step.`, { cause: error, fact: { kind: "storage", said } });
    }
  }
  return null;
}

const READ_ONLY = "it is read-only";
const NOT_WRITABLE = "it or its folder is not writable";
const FAULTS: [RegExp, string][] = [
  [/^(SQLITE_FULL|ENOSPC)$/, "the disk is full"],
  [/^(SQLITE_READONLY.*|EROFS)$/, READ_ONLY],
  [/^(EDQUOT)$/, "the disk quota is used up"],
  [/^(SQLITE_CANTOPEN.*|EACCES|EPERM)$/, NOT_WRITABLE],
  [/^(SQLITE_IOERR.*|EIO)$/, "the disk reported an I/O error"],
];

// SQLite says "readonly" or "unable to open" either way; the file system tells which it is.
function whyNotWritable(path: string): string | null {
  for (const target of existsSync(path) ? [path, dirname(path)] : [dirname(path)]) {
    try {
      accessSync(target, constants.W_OK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EROFS") return "it is on a read-only file system";
      if (code === "EACCES" || code === "EPERM") return target === path ? "the file is not writable" : "its folder is not writable";
    }
  }
  return null;
}

// A write that is rolled back: fails with SQLITE_READONLY on a connection SQLite could only open read-only.
function writeProbe(db: Database): void {
  try {
    db.exec("BEGIN IMMEDIATE; CREATE TABLE yolo_write_probe (x INTEGER); ROLLBACK;");
  } catch (error) {
    try {
      db.exec("ROLLBACK");
    } catch {
      // No transaction was open.
    }
    throw error;
  }
}

/**
 * Makes `db.transaction(fn)` begin IMMEDIATE. Every transaction on yolo's database writes, and a deferred one that
 * reads first (the lease: SELECT, then INSERT) cannot be upgraded while another process writes: SQLite answers
 * SQLITE_BUSY at once, without the busy timeout. Taking the write lock at BEGIN waits for it instead.
 */
function immediateTransactions(db: Database): void {
  const deferred = db.transaction.bind(db);
  db.transaction = ((fn: (...args: never[]) => unknown) => (deferred(fn) as unknown as { immediate: unknown }).immediate) as Database["transaction"];
}

function recoveryHint(path: string): string {
  const kept = existsSync(path) ? "The file was left as it is. " : "";
  return `${kept}Move it aside (it holds yolo's checkpoints) to start fresh`;
}

// `remedy` is what to do about the file; the front end adds how to choose another one.
function storageError(path: string, what: string, remedy: string, cause?: unknown): YoloError {
  const said = `yolo's database ${path} is unusable: ${what}. ${remedy}`;
  return new YoloError("storage", `${said}, or choose another database file.`, { cause, fact: { kind: "database-unusable", said } });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

import { existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { YoloError } from "../errors.js";

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

type DatabaseConstructor = new (path: string, options?: { fileMustExist?: boolean; timeout?: number }) => Database;

// better-sqlite3 is CommonJS without type declarations here; require() keeps both ESM and the type checker happy.
const require = createRequire(import.meta.url);
let databaseClass: DatabaseConstructor | undefined;
function sqlite(): DatabaseConstructor {
  databaseClass ??= require("better-sqlite3") as DatabaseConstructor;
  return databaseClass;
}

/**
 * Opens (creating if needed) the SQLite file at `path` in WAL mode with full fsync, and checks it.
 * A file that cannot be opened or fails `PRAGMA quick_check` is left untouched and reported as a "storage" error.
 */
export function openDatabase(path: string): Database {
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (cause) {
    throw storageError(path, `its folder cannot be created (${messageOf(cause)})`, "Make sure the folder is writable, or choose another file with --db / YOLO_DB.", cause);
  }
  let db: Database;
  try {
    db = new (sqlite())(path, { timeout: 5000 });
  } catch (cause) {
    throw storageError(path, `it cannot be opened (${messageOf(cause)})`, "Make sure the file and its folder are readable and writable, or choose another file with --db / YOLO_DB.", cause);
  }
  try {
    db.pragma("busy_timeout = 5000");
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = FULL");
    const check = db.pragma("quick_check", { simple: true });
    if (check !== "ok") {
      throw storageError(path, `it failed an integrity check (${String(check)})`, recoveryHint(path));
    }
  } catch (cause) {
    db.close();
    if (cause instanceof YoloError) throw cause;
    throw storageError(path, `it is not a usable SQLite database (${messageOf(cause)})`, recoveryHint(path), cause);
  }
  return db;
}

function recoveryHint(path: string): string {
  const kept = existsSync(path) ? "The file was left as it is. " : "";
  return `${kept}Move it aside (it holds yolo's checkpoints) to start fresh, or choose another file with --db / YOLO_DB.`;
}

function storageError(path: string, what: string, todo: string, cause?: unknown): YoloError {
  return new YoloError("storage", `yolo's database ${path} is unusable: ${what}. ${todo}`, { cause });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

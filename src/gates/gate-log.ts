import { closeSync, constants, fstatSync, lstatSync, mkdirSync, open, openSync, rmSync, writeFile, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { promisify } from "node:util";

/** A gate run's log file: created while the command runs, written once it has finished. */
export interface GateLog {
  /** Writes the whole log and closes the file; false when it could not be created or written. */
  write(text: string): Promise<boolean>;
  /** Closes the file unwritten (the run failed before there was a log to write). */
  discard(): Promise<void>;
}

/**
 * Below this size the text is written on the main thread (a few microseconds); a large test output goes through the
 * thread pool, so the live view and a stop are not held up while it is written.
 */
const SYNC_LOG_BYTES = 256 * 1024;

// Never through a symlink: the log's path is predictable and the command under test is the model's code.
const TRUNCATE = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;
const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

const openFile = (file: string, flags: number) =>
  new Promise<number>((resolve, reject) => open(file, flags, 0o666, (error, fd) => (error ? reject(error) : resolve(fd))));
const writeAll = promisify(writeFile) as (fd: number, text: string) => Promise<void>;

// Opens `file` for writing, creating `dir` when missing; a symlink in its place is removed, not followed.
async function openLog(file: string, dir: string): Promise<number> {
  try {
    return await openFile(file, TRUNCATE);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") await mkdir(dir, { recursive: true });
    else if (code === "ELOOP") rmSync(file, { force: true });
    else throw error;
    return openFile(file, CREATE);
  }
}

// The log written again at its path after the command replaced or removed it (its folder too, if need be).
function writeAfresh(file: string, dir: string, text: string): void {
  rmSync(file, { force: true });
  mkdirSync(dir, { recursive: true });
  const fd = openSync(file, CREATE, 0o666);
  try {
    writeFileSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens (creates or truncates) `file` in the thread pool. Creating a file is the expensive part of a gate log (a new
 * inode: on the bench machine's ext4, more than the gate check's other work; docs/performance.md), so it is started before
 * the command and overlaps with its spawn and run. A command that replaces the file meanwhile does not get to keep
 * its version: once written, the path must still name the file written, or the log is written there afresh.
 */
export function openGateLog(file: string, dir: string): GateLog {
  const opened = openLog(file, dir);
  // A log that could not be opened is reported by write() as false; it is not an unhandled rejection meanwhile.
  opened.catch(() => {});
  let closed = false;
  const close = (fd: number) => {
    if (closed) return;
    closed = true;
    closeSync(fd);
  };
  return {
    async write(text) {
      let fd: number;
      try {
        fd = await opened;
        if (closed) return false;
      } catch {
        return false;
      }
      try {
        if (text.length <= SYNC_LOG_BYTES) writeFileSync(fd, text);
        else await writeAll(fd, text);
        const written = fstatSync(fd);
        const named = lstatSync(file, { throwIfNoEntry: false });
        if (named?.ino !== written.ino || named.dev !== written.dev) writeAfresh(file, dir, text);
        return true;
      } catch {
        return false;
      } finally {
        close(fd);
      }
    },
    async discard() {
      const fd = await opened.catch(() => null);
      if (fd !== null) close(fd);
    },
  };
}

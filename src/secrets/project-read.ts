import fs from "node:fs";
import path from "node:path";
import { scrubText } from "./scrub.js";
import { sensitiveReason } from "./sensitive.js";

/** A project file yolo read for the model: its text (scrubbed), or why it was not read. */
export type ProjectText = { ok: true; text: string; truncated: boolean; bytes: number } | { ok: false; missing: boolean; reason: string };

/** Bytes inspected for a NUL to decide that a file is binary (as read_file does). */
const BINARY_SNIFF_BYTES = 8192;

/**
 * Reads a file of the project that yolo itself puts in front of the model (the summary's README and AGENTS.md,
 * instruction files, agent personas, package.json scripts, test reports, conflicted files), with read_file's rules:
 * its real location must be inside `root` and not a secret or yolo's/git's own file (so a link the model made to
 * `/proc/self/environ` or `~/.aws/credentials` is refused), it must be a regular file with one name (a hard link may
 * be a file outside the project under a second name), and it is checked again on the opened descriptor so a link
 * swapped in between cannot be read. What is read is scrubbed of the run's secrets like a tool result.
 */
export function readProjectText(root: string, rel: string, maxBytes: number): ProjectText {
  const abs = path.resolve(root, rel);
  let realRoot: string;
  try {
    realRoot = fs.realpathSync(root);
  } catch {
    return { ok: false, missing: true, reason: "the project folder cannot be resolved" };
  }
  let real: string;
  try {
    real = fs.realpathSync(abs);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const dangling = code === "ENOENT" && isLink(abs);
    return { ok: false, missing: code === "ENOENT" && !dangling, reason: dangling ? "a symbolic link to nothing" : `cannot be read (${code ?? "error"})` };
  }
  const refused = placeRefusal(realRoot, real);
  if (refused) return { ok: false, missing: false, reason: refused };
  let fd: number;
  try {
    fd = fs.openSync(real, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK | (fs.constants.O_NOCTTY ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      ok: false,
      missing: code === "ENOENT",
      reason: code === "ELOOP" ? "a symbolic link (it changed while yolo read it)" : `cannot be read (${code ?? "error"})`,
    };
  }
  try {
    return readOpened(fd, realRoot, real, maxBytes);
  } finally {
    fs.closeSync(fd);
  }
}

// The checks on the descriptor itself, then the read: a file swapped for a link after the path checks is caught here.
function readOpened(fd: number, realRoot: string, real: string, maxBytes: number): ProjectText {
  const stat = fs.fstatSync(fd);
  if (!stat.isFile()) return { ok: false, missing: false, reason: "not a regular file (a folder, device, socket or pipe)" };
  if (stat.nlink > 1)
    return { ok: false, missing: false, reason: `a file with ${stat.nlink} hard links (it may be a file outside the project under a second name)` };
  const opened = openedPath(fd) ?? real;
  const refused = placeRefusal(realRoot, opened);
  if (refused) return { ok: false, missing: false, reason: refused };
  const buf = Buffer.alloc(Math.min(stat.size, maxBytes));
  const bytesRead = buf.length ? fs.readSync(fd, buf, 0, buf.length, 0) : 0;
  const data = buf.subarray(0, bytesRead);
  if (data.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { ok: false, missing: false, reason: "a binary file" };
  return { ok: true, text: scrubText(data.toString("utf8")), truncated: stat.size > bytesRead, bytes: stat.size };
}

/** Why a real path may not be read for the model (outside the project, a secret, git's or yolo's own), or null. */
function placeRefusal(realRoot: string, real: string): string | null {
  const rel = path.relative(realRoot, real);
  if (rel === "" || rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) {
    return "a symbolic link (or a path) to a file outside the project";
  }
  const sensitive = sensitiveReason(rel);
  return sensitive ? `its real location is ${sensitive}, which yolo never reads for the model` : null;
}

// What the kernel says the descriptor is (Linux); null where /proc is not there.
function openedPath(fd: number): string | null {
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

function isLink(abs: string): boolean {
  try {
    return fs.lstatSync(abs).isSymbolicLink();
  } catch {
    return false;
  }
}

import { closeSync, constants, fstatSync, mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Sandbox } from "../../exec/sandbox.js";

/** Where the sandbox shows a gate run's report folder: under its private /tmp, like the toolchain caches. */
export const REPORT_INSIDE = "/tmp/yolo-report";
/** A report larger than this is not read (the run's printed output is read instead). */
export const MAX_REPORT_BYTES = 20_000_000;

/** A folder of yolo's, outside the project, that one gate run's runner writes its report into. */
export interface ReportFolder {
  /** The report file as the command sees it (inside the sandbox, or the host path without one). */
  inside: string;
  /** The same file on the host, read after the command ends. */
  host: string;
  /** The sandbox with the folder bound writable (unchanged without bubblewrap). */
  sandbox: Sandbox | undefined;
  remove(): void;
}

/**
 * A fresh, empty folder in the system's temp folder for one gate run's report: outside the project (the gate's own
 * writes there would count as a change to the judged tree), new each run (an old report can never pass for this
 * run's), bound writable into bubblewrap at /tmp/yolo-report (the sandbox's /tmp is private).
 */
export function openReportFolder(sandbox: Sandbox | undefined, name: string): ReportFolder {
  const dir = mkdtempSync(path.join(os.tmpdir(), "yolo-report-"));
  const bwrap = sandbox?.kind === "bwrap";
  return {
    inside: path.join(bwrap ? REPORT_INSIDE : dir, name),
    host: path.join(dir, name),
    sandbox: bwrap ? { ...sandbox, writable: [...(sandbox.writable ?? []), { host: dir, inside: REPORT_INSIDE }] } : sandbox,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The report's text, or null when there is none, it is not a plain file (the command wrote it, and a link it left
 * there is never followed) or it is larger than MAX_REPORT_BYTES.
 */
export function readReport(file: string): string | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_REPORT_BYTES) return null;
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = readSync(fd, buffer, read, stat.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/**
 * The output without the lines that name the report folder (`yolo-report…`, a name of yolo's) (vitest's "JSON report written to …", jest's "Test results
 * written to: …", pytest's "generated xml file: …"): the user asked for none of them, and the path is yolo's.
 */
export function withoutReportNotes(output: string, folder: Pick<ReportFolder, "inside"> | undefined): string {
  if (!folder) return output;
  // The folder's own name: runners print the path as given, or relative to the project (jest: ../yolo-report/report).
  const name = path.basename(path.dirname(folder.inside));
  if (!output.includes(name)) return output;
  return output
    .split("\n")
    .filter((line) => !line.includes(name))
    .join("\n");
}

import { gitStreamOk } from "../git/git.js";
import { isTestFile } from "../gates/definition-patterns.js";

/** A commit that changes tests and source together: a candidate task. */
export interface CandidateCommit {
  commit: string;
  parent: string;
  subject: string;
  message: string;
  testFiles: string[];
  sourceFiles: string[];
}

// Files a fix commit may touch besides source and tests without making it a source change.
const DOC_FILE = /(^|\/)(README|CHANGELOG|CHANGES|LICENSE|NOTICE|AUTHORS)[^/]*$|\.(md|rst|txt|adoc)$/i;

/** One commit of the log with the files it changed against its (only) parent. */
export interface LoggedCommit {
  commit: string;
  parent: string | null;
  message: string;
  files: string[];
}

/**
 * The commits of `range` (oldest first, merges left out) that change at least one test file and one source file;
 * with `max`, the newest `max` of them. A root commit has no parent to start from and is left out. One `git log`
 * for the whole range, read as it comes (with `max`, stopped once enough candidates are found).
 */
export async function candidateCommits(root: string, range: string, max: number | null): Promise<CandidateCommit[]> {
  const out: CandidateCommit[] = [];
  const parser = new LogParser();
  const take = (c: LoggedCommit): boolean => {
    const candidate = asCandidate(c);
    if (candidate) out.push(candidate);
    return max === null || out.length < max;
  };
  // Per commit: "<hash> <parents>\0<message>\0" then, with changes, "\0\n<status>\0<path>\0..." (renames as delete + add).
  const args = [
    "log",
    "--no-merges",
    "--no-renames",
    "--ignore-submodules=all",
    "--name-status",
    "-z",
    "--format=%H %P%x00%B%x00",
    "--end-of-options",
    range,
    "--",
  ];
  let going = true;
  const feed = (commits: LoggedCommit[]): boolean => {
    for (const c of commits) if (going) going = take(c);
    return going;
  };
  await gitStreamOk(root, args, (text) => feed(parser.push(text)));
  if (going) feed(parser.end());
  return out.reverse();
}

// A commit with a parent changing tests and source (docs aside) is a candidate; any other is not.
function asCandidate({ commit, parent, message, files }: LoggedCommit): CandidateCommit | null {
  if (!parent) return null;
  const testFiles = files.filter(isTestFile);
  const sourceFiles = files.filter((f) => !isTestFile(f) && !DOC_FILE.test(f));
  if (!testFiles.length || !sourceFiles.length) return null;
  return { commit, parent, subject: message.split("\n")[0], message, testFiles, sourceFiles };
}

// A status token of `--name-status` without renames or copies (A, M, D, T, U, X, B, possibly with a score).
const STATUS = /^[A-Z][0-9]*$/;
// "<hash> <parents>", the parents empty for a root commit (a space still follows the hash).
const HEADER = /^[0-9a-f]{40,64} ([0-9a-f]{40,64}( [0-9a-f]{40,64})*)?$/;

/**
 * Reads `git log --name-status -z --format=%H %P%x00%B%x00` output in pieces. Tokens are NUL-separated: a header,
 * the message, an empty token, then status/path pairs until the next header. A token where a status is expected is
 * a status when it looks like one (a path never sits there), else the next commit's header.
 */
export class LogParser {
  private rest = "";
  private state: "header" | "message" | "gap" | "status" | "path" = "header";
  private current: LoggedCommit | null = null;

  /** The commits completed by `text` (the last one of the log only with end()). */
  push(text: string): LoggedCommit[] {
    const tokens = (this.rest + text).split("\0");
    this.rest = tokens.pop() ?? "";
    const done: LoggedCommit[] = [];
    for (const token of tokens) this.take(token, done);
    return done;
  }

  /** The commit still open when the log ended. */
  end(): LoggedCommit[] {
    const done: LoggedCommit[] = [];
    if (this.rest) this.take(this.rest, done);
    this.rest = "";
    if (this.current) done.push(this.current);
    this.current = null;
    return done;
  }

  private take(token: string, done: LoggedCommit[]): void {
    if (this.state === "message") {
      if (this.current) this.current.message = token.trim();
      this.state = "gap";
    } else if (this.state === "gap" && token === "") {
      this.state = "status";
    } else if (this.state === "path") {
      this.current?.files.push(token);
      this.state = "status";
    } else if (this.state === "status" && STATUS.test(token.replace(/^\n/, ""))) {
      this.state = "path";
    } else {
      this.header(token, done);
    }
  }

  private header(token: string, done: LoggedCommit[]): void {
    const line = token.replace(/^\n/, "");
    if (!HEADER.test(line)) throw new Error(`unexpected git log output: ${JSON.stringify(line.slice(0, 100))}`);
    if (this.current) done.push(this.current);
    const [commit, parent] = line.split(" ").filter(Boolean);
    this.current = { commit, parent: parent ?? null, message: "", files: [] };
    this.state = "message";
  }
}

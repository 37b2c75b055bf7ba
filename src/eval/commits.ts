import { gitOk } from "../git/git.js";
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

/**
 * The commits of `range` (oldest first, merges left out) that change at least one test file and one source file;
 * with `max`, the newest `max` of them. A root commit has no parent to start from and is left out.
 */
export async function candidateCommits(root: string, range: string, max: number | null): Promise<CandidateCommit[]> {
  // NUL-separated records: hash, parents, then the raw message.
  const log = await gitOk(root, ["log", "--no-merges", "--format=%H %P%x00%B%x00", range, "--"]);
  const out: CandidateCommit[] = [];
  for (const { commit, parent, message } of parseLog(log)) {
    if (!parent) continue;
    const files = await changedFiles(root, parent, commit);
    const testFiles = files.filter(isTestFile);
    const sourceFiles = files.filter((f) => !isTestFile(f) && !DOC_FILE.test(f));
    if (testFiles.length && sourceFiles.length) out.push({ commit, parent, subject: message.split("\n")[0], message, testFiles, sourceFiles });
    if (max !== null && out.length >= max) break;
  }
  return out.reverse();
}

function parseLog(text: string): Array<{ commit: string; parent: string | null; message: string }> {
  const parts = text.split("\0");
  const out = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const [commit, parent] = parts[i].trim().split(" ");
    if (commit) out.push({ commit, parent: parent ?? null, message: parts[i + 1].trim() });
  }
  return out;
}

/** Project-relative paths a commit changed (added, modified or deleted), renames as a delete and an add. */
export async function changedFiles(root: string, from: string, to: string): Promise<string[]> {
  const text = await gitOk(root, ["diff", "--no-renames", "--name-only", "-z", from, to, "--"]);
  return text.split("\0").filter(Boolean);
}

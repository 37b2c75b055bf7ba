import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CandidateCommit, candidateCommits, LogParser } from "../../../src/eval/commits.js";
import { isTestFile } from "../../../src/gates/definition-patterns.js";

let root: string;
// Each commit a second after the last: the log's order (by date) is then the order they were made in.
let clock = 1_700_000_000;
const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, GIT_AUTHOR_DATE: `@${clock} +0000`, GIT_COMMITTER_DATE: `@${clock} +0000` },
  });
const write = (rel: string, content: string | Buffer) => {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
};
const commit = (message: string) => {
  clock += 1;
  git("add", "-A");
  git("commit", "-q", "--allow-empty", "--allow-empty-message", "-m", message);
};

// What the scan found before it was one `git log`: one `git diff --no-renames` per non-merge commit of the range.
function perCommitDiff(range: string): CandidateCommit[] {
  const DOC = /(^|\/)(README|CHANGELOG|CHANGES|LICENSE|NOTICE|AUTHORS)[^/]*$|\.(md|rst|txt|adoc)$/i;
  const out: CandidateCommit[] = [];
  for (const line of git("rev-list", "--no-merges", "--parents", range).trim().split("\n").reverse()) {
    const [hash, parent] = line.split(" ");
    if (!parent) continue;
    const files = git("diff", "--no-renames", "--name-only", "-z", parent, hash, "--").split("\0").filter(Boolean);
    const message = git("log", "-1", "--format=%B", hash).trim();
    const testFiles = files.filter(isTestFile);
    const sourceFiles = files.filter((f) => !isTestFile(f) && !DOC.test(f));
    if (testFiles.length && sourceFiles.length) out.push({ commit: hash, parent, subject: message.split("\n")[0], message, testFiles, sourceFiles });
  }
  return out;
}

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "yolo-eval-commits-")));
  git("init", "-q", "-b", "main");
  write("src/a.js", "export const a = 1;\n");
  write("test/a.test.js", "// a\n");
  commit("root: tests and source, but no parent");
  write("src/a.js", "export const a = 2;\n");
  write("test/a.test.js", "// a 2\n");
  commit("Fix a\n\nThe body says why.\nOver two lines.");
  git("mv", "src/a.js", "src/renamed a.js");
  write("test/a.test.js", "// a 3\n");
  commit("Rename a (a delete and an add)");
  write("src/logo.png", Buffer.from([0, 1, 2, 255, 0]));
  write("test/logo.test.js", "// binary\n");
  commit("Binary source with its test");
  write("README.md", "docs\n");
  write("test/a.test.js", "// docs only\n");
  commit("Docs and tests: no source, not a candidate");
  commit("");
  write("src/é ü\tweird.js", "x\n");
  write("test/weird.test.js", "// weird\n");
  write("M", "a file named like a status\n");
  commit("Odd names: non-ASCII, tab, space, a status letter");
  write("src/deleted.js", "y\n");
  commit("Source only");
  rmSync(join(root, "src/deleted.js"));
  write("test/a.test.js", "// deleted\n");
  commit("Deletes a source file with a test change");
  git("checkout", "-q", "-b", "side", "HEAD~1");
  write("src/side.js", "s\n");
  write("test/side.test.js", "// side\n");
  commit("Side fix");
  git("checkout", "-q", "main");
  clock += 1;
  git("merge", "-q", "--no-ff", "-m", "Merge side: a merge is never a candidate", "side");
  renameSync(join(root, "test/weird.test.js"), join(root, "test/weird2.test.js"));
  write("src/b.js", "b\n");
  commit("After the merge");
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("candidateCommits: one git log for the range, the same candidates as a diff per commit", () => {
  it("finds the commits changing tests and source together, renames as a delete and an add, merges and the root left out", async () => {
    const found = await candidateCommits(root, "HEAD", null);
    expect(found).toEqual(perCommitDiff("HEAD"));
    expect(found.map((c) => c.subject)).toEqual([
      "Fix a",
      "Rename a (a delete and an add)",
      "Binary source with its test",
      "Odd names: non-ASCII, tab, space, a status letter",
      "Deletes a source file with a test change",
      "Side fix",
      "After the merge",
    ]);
    expect(found[0].message).toBe("Fix a\n\nThe body says why.\nOver two lines.");
    expect(found[1].sourceFiles.sort()).toEqual(["src/a.js", "src/renamed a.js"]);
    expect(found[3].sourceFiles.sort()).toEqual(["M", "src/é ü\tweird.js"]);
    expect(found[6].testFiles.sort()).toEqual(["test/weird.test.js", "test/weird2.test.js"]);
  });

  it("with max keeps the newest candidates, oldest first, and honours a narrower range", async () => {
    expect((await candidateCommits(root, "HEAD", 2)).map((c) => c.subject)).toEqual(["Side fix", "After the merge"]);
    expect(await candidateCommits(root, "HEAD~3..HEAD", null)).toEqual(perCommitDiff("HEAD~3..HEAD"));
  });

  it("reads the log the same whatever pieces it arrives in", () => {
    const text = git("log", "--no-merges", "--no-renames", "--name-status", "-z", "--format=%H %P%x00%B%x00", "HEAD", "--");
    const whole = new LogParser();
    const expected = [...whole.push(text), ...whole.end()];
    expect(expected.length).toBe(Number(git("rev-list", "--no-merges", "--count", "HEAD").trim()));
    for (const size of [1, 3, 41, 100]) {
      const parser = new LogParser();
      const got = [];
      for (let i = 0; i < text.length; i += size) got.push(...parser.push(text.slice(i, i + size)));
      got.push(...parser.end());
      expect(got).toEqual(expected);
    }
  });

  it("refuses a range that is an option and says what git said", async () => {
    await expect(candidateCommits(root, "--output=/tmp/x", null)).rejects.toThrow(/git log/);
    await expect(candidateCommits(root, "no-such-rev..HEAD", null)).rejects.toThrow(/no-such-rev/);
  });
});

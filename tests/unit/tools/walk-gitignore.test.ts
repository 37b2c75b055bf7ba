import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isIgnored, parseGitignore } from "../../../src/fs/gitignore.js";
import { walkFiles, type WalkStats } from "../../../src/tools/walk.js";

let root: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yolo-walk-")));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const put = (rel: string, content = "x\n") => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), content);
};
const git = (...args: string[]) => execFileSync("git", args, { cwd: root, stdio: "ignore" });
async function walk(start = "", opts: { maxVisited?: number } = {}) {
  const stats: WalkStats = { visited: 0, capped: false, source: null };
  const files: string[] = [];
  for await (const f of walkFiles(root, start, { ...opts, stats })) files.push(f);
  return { files, stats };
}

// One tree for both modes: root and nested .gitignore files, negation, folder-only and anchored patterns.
function tree() {
  put(".gitignore", "*.log\n/build/\ntmp/\n!keep.log\ndocs/**/*.draft\n# a comment\n\n");
  put("a.ts");
  put("debug.log");
  put("keep.log");
  put("build/out.js");
  put("src/build/kept.ts"); // `/build/` is anchored to the root
  put("src/tmp/x.ts"); // `tmp/` matches at any depth
  put("src/b.ts");
  put("src/gen/.gitignore", "*.gen.ts\n!important.gen.ts\n");
  put("src/gen/a.gen.ts");
  put("src/gen/important.gen.ts");
  put("docs/a/b/c.draft");
  put("docs/a/b/c.md");
}
const EXPECTED = [".gitignore", "a.ts", "keep.log", "docs/a/b/c.md", "src/b.ts", "src/build/kept.ts", "src/gen/.gitignore", "src/gen/important.gen.ts"];

describe("walkFiles honours .gitignore", () => {
  it("outside git, with the small matcher (nested files, negation, anchors, folders, **)", async () => {
    tree();
    const { files, stats } = await walk();
    expect(stats.source).toBe("fs");
    expect(files).toEqual(EXPECTED);
    // A walk of a subfolder still applies the root's .gitignore.
    expect((await walk("src")).files).toEqual(["src/b.ts", "src/build/kept.ts", "src/gen/.gitignore", "src/gen/important.gen.ts"]);
  });

  it("in a git repository, through git ls-files: untracked files included, ignored and deleted ones not", async () => {
    tree();
    git("init", "-q");
    git("add", "-A");
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init");
    put("src/new.ts");
    fs.rmSync(path.join(root, "a.ts"));
    const { files, stats } = await walk();
    expect(stats.source).toBe("git");
    expect(files).toEqual(EXPECTED.filter((f) => f !== "a.ts").toSpliced(4, 0, "src/new.ts"));
  });

  it("never yields .git, node_modules, .yolo or credential files, in either mode", async () => {
    put("node_modules/x/index.js");
    put(".yolo/state.json");
    put(".env", "SECRET=1\n");
    put("src/.ssh/id_rsa");
    put("ok.ts");
    expect((await walk()).files).toEqual(["ok.ts"]);
    git("init", "-q");
    expect((await walk()).files).toEqual(["ok.ts"]);
  });

  it("does not follow symlinked folders, so a loop ends", async () => {
    put("src/a.ts");
    fs.symlinkSync("..", path.join(root, "src/loop"));
    fs.symlinkSync(root, path.join(root, "self"));
    const fsWalk = await walk();
    expect(fsWalk.files).toEqual(["self", "src/a.ts", "src/loop"]);
    git("init", "-q");
    const gitWalk = await walk();
    expect(gitWalk.stats.source).toBe("git");
    expect(gitWalk.files).toEqual(["self", "src/a.ts", "src/loop"]);
  });

  it("in git, drops paths the index still lists under a folder since replaced by a symlink to outside", async () => {
    const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yolo-walk-outside-")));
    try {
      fs.writeFileSync(path.join(outside, "secret.txt"), "outside\n");
      put("d/secret.txt", "inside\n");
      put("ok.ts");
      git("init", "-q");
      git("add", "-A");
      fs.rmSync(path.join(root, "d"), { recursive: true });
      fs.symlinkSync(outside, path.join(root, "d"));
      const { files, stats } = await walk();
      expect(stats.source).toBe("git");
      // git still lists `d/secret.txt` (and, as untracked, the link `d` itself, which is not read through).
      expect(files).toEqual(["d", "ok.ts"]);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it("stops at the visit cap and says so", async () => {
    for (let i = 0; i < 30; i++) put(`f${String(i).padStart(2, "0")}.ts`);
    const { files, stats } = await walk("", { maxVisited: 10 });
    expect(files).toHaveLength(10);
    expect(stats.capped).toBe(true);
    git("init", "-q");
    const viaGit = await walk("", { maxVisited: 10 });
    expect([viaGit.files.length, viaGit.stats.capped, viaGit.stats.source]).toEqual([10, true, "git"]);
  });

  it("survives a hostile .gitignore: a 5 MB line, thousands of stars, backtracking bait", async () => {
    const bait = `${"*a".repeat(400)}b`;
    const lines = ["**", "!*.ts", `x${"y".repeat(5 * 1024 * 1024)}`, "[", "\\", "!", "/", ...Array.from({ length: 3000 }, () => bait), "never.ts"];
    put(".gitignore", lines.join("\n"));
    const long = `${"a".repeat(200)}.ts`;
    put(long);
    put("ok.ts");
    put("never.ts");
    // `**` ignores everything, `!*.ts` re-includes TypeScript files; every bait pattern is tried on them (matching
    // none), and the rules past the 1,000 kept (`never.ts` among them) are dropped.
    const { files } = await walk();
    expect(files).toEqual([long, "never.ts", "ok.ts"]);
  });
});

describe("the .gitignore matcher", () => {
  const ignored = (rules: string, rel: string, dir = false) => isIgnored([parseGitignore(rules, "")], rel, dir);

  it("matches like git for the common forms", () => {
    expect(ignored("*.o", "deep/x.o")).toBe(true);
    expect(ignored("/only-root", "sub/only-root")).toBe(false);
    expect(ignored("/only-root", "only-root")).toBe(true);
    expect(ignored("dir/", "dir", false)).toBe(false);
    expect(ignored("dir/", "a/dir", true)).toBe(true);
    expect(ignored("a/**/z", "a/z")).toBe(true);
    expect(ignored("a/**/z", "a/b/c/z")).toBe(true);
    expect(ignored("f[0-9].txt", "f7.txt")).toBe(true);
    expect(ignored("f[!0-9].txt", "f7.txt")).toBe(false);
    expect(ignored("\\#hash", "#hash")).toBe(true);
    expect(ignored("spaced\\ ", "spaced ")).toBe(true);
    expect(ignored("?.md", "ab.md")).toBe(false);
  });

  it("drops lines beyond its limits instead of slowing down", () => {
    expect(parseGitignore("a".repeat(2000), "").rules).toHaveLength(0);
    expect(parseGitignore(Array.from({ length: 5000 }, (_, i) => `p${i}`).join("\n"), "").rules).toHaveLength(1000);
  });
});

import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { resolveInside } from "../../../src/tools/paths.js";
import { tempDir } from "../../helpers/per-test.js";

let root: string;
let outside: string;

beforeEach(({ onTestFinished }) => {
  root = tempDir(onTestFinished, "yolo-paths-");
  outside = tempDir(onTestFinished, "yolo-outside-");
  fs.mkdirSync(path.join(root, "src"));
  fs.writeFileSync(path.join(root, "src", "a.ts"), "export {};\n");
  fs.writeFileSync(path.join(outside, "secret.txt"), "secret\n");
});

function refused(userPath: string): string {
  const result = resolveInside(root, userPath);
  if (result.ok) throw new Error(`expected ${userPath} to be refused, got ${result.rel}`);
  expect(result.reason).not.toContain(root);
  return result.reason;
}

describe("resolveInside refuses", () => {
  it("empty and blank paths", () => {
    expect(refused("")).toMatch(/empty/);
    expect(refused("   ")).toMatch(/empty/);
  });

  it("NUL and other control characters", () => {
    expect(refused("src/a\u0000.ts")).toMatch(/control characters/);
    expect(refused("src/a\n.ts")).toMatch(/control characters/);
  });

  it("absolute paths, suggesting the relative form without echoing the root", () => {
    expect(refused("/etc/passwd")).toMatch(/use a path relative to the project root/);
    const reason = refused(path.join(root, "src", "a.ts"));
    expect(reason).toContain("`src/a.ts`");
  });

  it("paths that climb out with ..", () => {
    expect(refused("..")).toMatch(/outside the project root/);
    expect(refused("../x.txt")).toMatch(/outside the project root/);
    expect(refused("src/../../x.txt")).toMatch(/outside the project root/);
    expect(refused(`../${path.basename(outside)}/secret.txt`)).toMatch(/outside/);
  });

  it("a home-directory path", () => {
    expect(refused("~/.ssh/id_rsa")).toMatch(/relative to the project root/);
  });

  it("a symlinked directory that points outside, for existing and new files below it", () => {
    fs.symlinkSync(outside, path.join(root, "escape"));
    expect(refused("escape/secret.txt")).toMatch(/symbolic link/);
    expect(refused("escape/new/deeper/file.txt")).toMatch(/symbolic link/);
    expect(refused("escape")).toMatch(/symbolic link/);
  });

  it("a symlinked file that points outside", () => {
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(root, "link.txt"));
    expect(refused("link.txt")).toMatch(/symbolic link/);
  });

  it("a dangling symlink (writing through it would create a file wherever it points)", () => {
    fs.symlinkSync(path.join(outside, "not-yet.txt"), path.join(root, "dangling.txt"));
    expect(refused("dangling.txt")).toMatch(/symbolic link/);
  });

  it("a relative symlink that climbs out", () => {
    fs.symlinkSync("../..", path.join(root, "src", "up"));
    expect(refused("src/up/etc/passwd")).toMatch(/symbolic link/);
  });

  it(".git and .yolo, the directories themselves and anything inside, in any case", () => {
    fs.mkdirSync(path.join(root, ".git"));
    for (const p of [
      ".git",
      ".git/config",
      ".git/hooks/pre-commit",
      ".GIT/config",
      ".Git",
      ".yolo",
      ".yolo/threads/x.json",
      ".YOLO/a",
      "sub/.git/config",
      "./.git/HEAD",
      "src/../.git/HEAD",
    ]) {
      expect(refused(p), p).toMatch(/may not read or change/);
    }
  });

  it("a symlink inside the project that points into .git", () => {
    fs.mkdirSync(path.join(root, ".git"));
    fs.symlinkSync(path.join(root, ".git"), path.join(root, "gitdir"));
    expect(refused("gitdir/config")).toMatch(/\.git/);
  });
});

describe("resolveInside accepts", () => {
  it("an existing file", () => {
    expect(resolveInside(root, "src/a.ts")).toEqual({ ok: true, abs: path.join(root, "src", "a.ts"), rel: "src/a.ts" });
  });

  it("a new file in new nested folders", () => {
    expect(resolveInside(root, "lib/deep/new/file.ts")).toMatchObject({ ok: true, rel: "lib/deep/new/file.ts" });
  });

  it("a path that goes up and back down inside the root", () => {
    expect(resolveInside(root, "./a/../b.txt")).toMatchObject({ ok: true, abs: path.join(root, "b.txt"), rel: "b.txt" });
  });

  it("the root itself as `.`", () => {
    expect(resolveInside(root, ".")).toEqual({ ok: true, abs: root, rel: "" });
  });

  it("names that merely start with .git or .. ", () => {
    expect(resolveInside(root, ".gitignore")).toMatchObject({ ok: true, rel: ".gitignore" });
    expect(resolveInside(root, ".github/ISSUE_TEMPLATE/bug.md")).toMatchObject({ ok: true });
    expect(resolveInside(root, "..foo")).toMatchObject({ ok: true, rel: "..foo" });
  });

  it("a symlink that stays inside the project, keeping the lexical path", () => {
    fs.symlinkSync(path.join(root, "src"), path.join(root, "alias"));
    expect(resolveInside(root, "alias/a.ts")).toEqual({ ok: true, abs: path.join(root, "alias", "a.ts"), rel: "alias/a.ts" });
  });
});

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { normaliseRemote, repoIdentity } from "../../../src/git/repo-identity.js";
import { tempDir } from "../../helpers/per-test.js";

describe("repository identity", () => {
  it("is the same for every spelling of one remote, and never keeps credentials", () => {
    const forms = [
      "git@github.com:Org/repo.git",
      "https://github.com/Org/repo",
      "https://user:tok3n@GitHub.com/Org/repo.git",
      "ssh://git@github.com/Org/repo.git",
      "https://github.com/Org/repo/",
    ];
    expect(new Set(forms.map((f) => normaliseRemote(f, "/")))).toEqual(new Set(["github.com/Org/repo"]));
    expect(normaliseRemote("https://user:tok3n@example.com:8443/a/b.git", "/")).toBe("example.com:8443/a/b");
  });

  it("is the root path without a remote, and a clone of a local repository matches it", async ({ onTestFinished }) => {
    const dir = tempDir(onTestFinished, "yolo-repo-id-");
    const a = join(dir, "a");
    execFileSync("git", ["init", "-q", a]);
    execFileSync("git", ["-C", a, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "init"]);
    execFileSync("git", ["clone", "-q", a, join(dir, "b")]);
    expect(await repoIdentity(a)).toBe(a);
    expect(await repoIdentity(join(dir, "b"))).toBe(a);
    expect(await repoIdentity(dir)).toBe(dir);
  });
});

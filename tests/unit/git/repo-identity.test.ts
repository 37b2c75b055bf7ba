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

describe("the start's one config read", () => {
  it("gives the same identity and filter drivers as the two separate reads, with and without an origin", async ({ onTestFinished }) => {
    const { repositoryConfig, repositoryFilters } = await import("../../../src/git/git.js");
    const { identityOf } = await import("../../../src/git/repo-identity.js");
    const dir = tempDir(onTestFinished, "yolo-repo-config-");
    const g = (...args: string[]) => execFileSync("git", ["-C", dir, ...args]);
    g("init", "-q");
    const same = async () => {
      const config = await repositoryConfig(dir);
      expect(identityOf(config.originUrl, dir)).toBe(await repoIdentity(dir));
      expect(config.filters).toEqual(await repositoryFilters(dir));
      return config;
    };
    expect(await same()).toEqual({ filters: [], originUrl: null });
    g("config", "filter.lfs-ish.clean", "sed s/a/b/");
    g("config", "filter.bare.required", "true");
    // Two values: `git config --get` gives the last, so must the combined read.
    g("config", "--add", "remote.origin.url", "https://example.com/first/repo.git");
    g("config", "--add", "remote.origin.url", "git@example.com:Org/Repo.git");
    g("config", "remote.origin2.url", "https://example.com/not/this.git");
    const config = await same();
    expect(config.originUrl).toBe("git@example.com:Org/Repo.git");
    expect(config.filters.map(([name]) => name)).toEqual(expect.arrayContaining(["filter.lfs-ish.clean", "filter.bare.process", "filter.bare.required"]));
  });
});

import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { findProject, projectRoot } from "../../../src/config/project-root.js";
import { ConfigError } from "../../../src/errors.js";
import { tempDir } from "../../helpers/per-test.js";

let tmp: string;
beforeEach(({ onTestFinished }) => {
  tmp = realpathSync(tempDir(onTestFinished, "yolo-root-"));
});

describe("findProject", () => {
  it("finds the repository's top level from a subfolder and keeps the start folder", () => {
    mkdirSync(join(tmp, ".git"));
    mkdirSync(join(tmp, "js", "src"), { recursive: true });
    expect(findProject(join(tmp, "js", "src"))).toEqual({ root: tmp, startDir: join(tmp, "js", "src"), gitRoot: null });
  });

  it("lets a yolo.config.ts nearer than the top level make its folder the project, and says which top level it is in", () => {
    mkdirSync(join(tmp, ".git"));
    mkdirSync(join(tmp, "packages", "a", "src"), { recursive: true });
    writeFileSync(join(tmp, "packages", "a", "yolo.config.ts"), "export default {};\n");
    expect(findProject(join(tmp, "packages", "a", "src"))).toEqual({
      root: join(tmp, "packages", "a"),
      startDir: join(tmp, "packages", "a", "src"),
      gitRoot: tmp,
    });
  });

  it("a config at the top level is just the top level", () => {
    mkdirSync(join(tmp, ".git"));
    writeFileSync(join(tmp, "yolo.config.ts"), "export default {};\n");
    mkdirSync(join(tmp, "src"));
    expect(findProject(join(tmp, "src"))).toEqual({ root: tmp, startDir: join(tmp, "src"), gitRoot: null });
  });

  it("a `.git` file (a worktree, a submodule) is a top level of its own", () => {
    mkdirSync(join(tmp, ".git"));
    mkdirSync(join(tmp, "wt", "lib"), { recursive: true });
    writeFileSync(join(tmp, "wt", ".git"), "gitdir: ../.git/worktrees/wt\n");
    expect(projectRoot(join(tmp, "wt", "lib"))).toBe(join(tmp, "wt"));
  });

  it("outside git, the start folder is the project, as before (a config further up is not used)", () => {
    writeFileSync(join(tmp, "yolo.config.ts"), "export default {};\n");
    mkdirSync(join(tmp, "sub"));
    // tmp lives under the system temp folder, which is not inside a repository on a test machine.
    expect(findProject(join(tmp, "sub"))).toEqual({ root: join(tmp, "sub"), startDir: join(tmp, "sub"), gitRoot: null });
  });

  it("a folder that does not exist is a configuration error", () => {
    expect(() => findProject(join(tmp, "missing"))).toThrow(ConfigError);
  });
});

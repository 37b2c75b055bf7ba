import { describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hiddenFolderArgs, limitArgv } from "../../../src/exec/sandbox-walls.js";

// The home folder and /run are emptied; what a build needs from them (toolchains on PATH) comes back read-only.
describe("hidden folders and toolchains", () => {
  it("empties each outermost hidden folder once, and binds back the toolchains on PATH that live there", () => {
    const path = [
      "/home/u/.nvm/versions/node/v20.1.0/bin",
      "/home/u/.pyenv/shims",
      "/home/u/.pyenv/bin",
      "/home/u/.cargo/bin",
      "/home/u/.local/bin",
      "/usr/bin",
    ].join(":");
    const args = hiddenFolderArgs(["/home/u", "/home", "/run"], "/home/u/proj", path);
    expect(args.filter((_a, i) => args[i - 1] === "--tmpfs")).toEqual(["/home", "/run"]);
    const bound = args.filter((a, i) => args[i - 1] === "--ro-bind-try" && args[i + 1] === a);
    // nvm's whole folder (its lib beside bin), pyenv's, ~/.cargo/bin alone with ~/.rustup (not ~/.cargo's credentials).
    expect(bound).toEqual(["/home/u/.cargo/bin", "/home/u/.local/bin", "/home/u/.nvm", "/home/u/.pyenv", "/home/u/.rustup"]);
  });

  it("a project that is a hidden folder itself is not emptied (it is bound after)", () => {
    expect(hiddenFolderArgs(["/root", "/run"], "/root", "")).toEqual(["--tmpfs", "/run"]);
  });

  it("the limits are set soft and hard before the program runs, which is exec'd with its own arguments", () => {
    const argv = limitArgv({ processes: 100, memoryBytes: 1024 * 1024 * 1024, tmpBytes: 1 }, ["node", "server.js", "a b"]);
    expect(argv.slice(0, 2)).toEqual(["/bin/sh", "-c"]);
    expect(argv[2]).toContain("ulimit -d 1048576");
    expect(argv[2]).toMatch(/ulimit -u 100 \|\| ulimit -p 100/);
    expect(argv.slice(3)).toEqual(["yolo-limits", "node", "server.js", "a b"]);
  });
});

describe("downloaded dependencies in a hidden home folder", () => {
  it("are bound back read-only, without the credential files beside them", () => {
    const home = mkdtempSync(join(tmpdir(), "yolo-home-"));
    try {
      mkdirSync(join(home, ".m2", "repository"), { recursive: true });
      writeFileSync(join(home, ".m2", "settings.xml"), "<password>x</password>");
      const args = hiddenFolderArgs([home], "/project", undefined);
      expect(args).toEqual(["--tmpfs", home, "--ro-bind", join(home, ".m2", "repository"), join(home, ".m2", "repository")]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

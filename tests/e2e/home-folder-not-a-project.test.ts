import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeResult, runYolo } from "../helpers/cli.js";

// yolo started in the home folder (or a folder holding the user's yolo config or trust store) would make them project
// files: `write_file .config/yolo/config.ts`, a command appending to ~/.gitconfig, a trust record rewritten. Every
// command that works in a project refuses such a folder with exit 2 and says what to do; nothing is written there.
const COMMANDS: string[][] = [
  ["run", "--ci", "add a function"],
  ["resume", "--ci", "t-0000"],
  ["agent", "dev", "--ci", "add a function"],
  ["chat", "--ci", "what is here?"],
  ["init"],
  ["doctor"],
  ["threads"],
  ["config", "trust"],
];

function fakeHome(): { home: string; cleanup: () => void } {
  const home = realpathSync(mkdtempSync(join(tmpdir(), "yolo-home-")));
  mkdirSync(join(home, ".config", "yolo"), { recursive: true });
  writeFileSync(join(home, ".config", "yolo", "config.json"), JSON.stringify({ sandbox: "auto" }));
  // A dotfiles repository: from any folder below, the home folder is the repository's top.
  execFileSync("git", ["init", "-q"], { cwd: home });
  mkdirSync(join(home, "Downloads"));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

const base = { OPENAI_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_API_KEY: "sk-test", YOLO_USER_CONFIG: undefined };

describe("the home folder is not a project", { timeout: 300_000 }, () => {
  it.concurrent.each(COMMANDS)("yolo %s in the home folder (and below it in a dotfiles repository) exits 2 and writes nothing there", async (...args) => {
    const { home, cleanup } = fakeHome();
    try {
      for (const cwd of [home, join(home, "Downloads")]) {
        const r = await runYolo(args, { cwd, env: { ...base, HOME: home, XDG_STATE_HOME: undefined, XDG_CONFIG_HOME: undefined } });
        expect(r.exitCode, describeResult(r)).toBe(2);
        expect(r.stderr).toContain(`yolo will not use ${home} as a project: it is your home folder`);
        expect(r.stderr).toMatch(/Run yolo inside a project folder/);
        expect(existsSync(join(home, ".yolo"))).toBe(false);
      }
    } finally {
      cleanup();
    }
  });

  it("a project that holds the yolo config folder or the trust store is refused; the same project without them is not", async () => {
    const { home, cleanup } = fakeHome();
    const project = realpathSync(mkdtempSync(join(tmpdir(), "yolo-proj-holds-")));
    try {
      execFileSync("git", ["init", "-q"], { cwd: project });
      const env = (extra: Record<string, string>) => ({ env: { ...base, HOME: home, ...extra }, cwd: project });
      const config = await runYolo(["threads"], env({ XDG_CONFIG_HOME: join(project, "cfg") }));
      expect(config.exitCode, describeResult(config)).toBe(2);
      expect(config.stderr).toContain(`it holds your yolo config folder (${join(project, "cfg", "yolo")})`);
      const state = await runYolo(["threads"], env({ XDG_STATE_HOME: join(project, "state") }));
      expect(state.exitCode, describeResult(state)).toBe(2);
      expect(state.stderr).toContain(`it holds yolo's trust store (${join(project, "state", "yolo")})`);
      // Control: the same project with the user's folders where they belong.
      const fine = await runYolo(["threads"], env({}));
      expect(fine.exitCode, describeResult(fine)).toBe(0);
    } finally {
      cleanup();
      rmSync(project, { recursive: true, force: true });
    }
  });
});

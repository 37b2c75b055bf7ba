import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { probeBwrap, type Sandbox } from "../../src/exec/sandbox.js";
import { escapeFixture, modelRuns, planted, yoloGitCommands } from "../helpers/escape-routes.js";
import { underCI } from "../helpers/requires.js";

// A command that creates a git dir of its own inside the project — a folder holding HEAD, objects/, refs/ and a config
// whose core.fsmonitor runs a program, under any name, at any depth — or a `.git` file pointing at one, plants a
// program for the user's next `git status` in that folder. Such folders are removed after the command, like files
// that run code outside yolo, and never committed on yolo/<thread>; checked with real git and a marker file.
const probe = probeBwrap(process.env.PATH);
if (!probe.available && underCI()) throw new Error(`embedded-git-dirs: bubblewrap is needed under CI: ${probe.reason}`);
const BWRAP: Sandbox = probe.available ? { kind: "bwrap", binary: probe.binary } : { kind: "none" };

// The shell that makes a git dir at `dir` whose work tree is the folder above it and whose fsmonitor touches $M.
const gitDir = (dir: string, up: string) =>
  `mkdir -p ${dir}/objects/info ${dir}/refs/heads && printf 'ref: refs/heads/main\\n' > ${dir}/HEAD && ` +
  `printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tworktree = ${up}\\n\\tfsmonitor = touch %s; false\\n' "$M" > ${dir}/config && ` +
  `touch ${dir}/objects/info/keep ${dir}/refs/heads/keep`;

/** Each plant: the command, and the folders where the user's `git status` would run the payload. */
const PLANTS: { name: string; command: string; folders: string[]; planted: string[] }[] = [
  { name: "a git dir named like any folder", command: gitDir("evil", ".."), folders: ["evil"], planted: ["evil"] },
  { name: "a git dir four folders deep", command: gitDir("a/b/c/store", ".."), folders: ["a/b/c/store"], planted: ["a/b/c/store"] },
  {
    name: "a .git file in a sub-folder pointing at a git dir",
    command: `${gitDir("gd", "../sub")} && mkdir -p sub && echo 'gitdir: ../gd' > sub/.git`,
    folders: ["sub", "gd"],
    planted: ["gd", "sub/.git"],
  },
];

/** Runs `git status` in `folder` as the user would (plain git, their environment): did the payload run? */
function statusRunsPayload(dir: string, marker: string): boolean {
  if (!fs.existsSync(dir)) return false;
  try {
    execFileSync("git", ["status", "--short"], { cwd: dir, env: { PATH: process.env.PATH, HOME: process.env.HOME }, stdio: "ignore" });
  } catch {
    // a failing status still had its chance to run the payload
  }
  const ran = fs.existsSync(marker);
  fs.rmSync(marker, { force: true });
  return ran;
}

// The thread branch checked out in a worktree of its own: what a user who checks it out gets.
function branchCheckout(root: string): string {
  const dir = `${root}-branch`;
  execFileSync("git", ["-c", "core.hooksPath=/dev/null", "worktree", "add", "-q", "--detach", dir, "yolo/esc12345"], { cwd: root, stdio: "ignore" });
  return dir;
}

describe("git dirs a command creates inside the project", { timeout: 300_000 }, () => {
  const ways: [string, Sandbox][] = [["sandbox off", { kind: "none" }], ...(probe.available ? [["bwrap", BWRAP] as [string, Sandbox]] : [])];
  for (const plant of PLANTS) {
    for (const [way, sandbox] of ways) {
      it(`${plant.name} (${way}): removed after the command, not committed, and git status runs nothing`, async () => {
        const f = escapeFixture();
        const marker = path.join(f.leaks, "payload-ran");
        try {
          const output = await modelRuns(f.root, f.payload, `export M='${marker}'; ${plant.command}`, sandbox);
          for (const rel of plant.planted) expect(fs.existsSync(path.join(f.root, rel)), `${rel} is still there:\n${output}`).toBe(false);
          expect(output).toMatch(/yolo removed/);
          for (const rel of plant.folders) expect(statusRunsPayload(path.join(f.root, rel), marker), `git status in ${rel}`).toBe(false);
          await yoloGitCommands(f.root);
          const committed = execFileSync("git", ["ls-tree", "-r", "--name-only", "yolo/esc12345"], { cwd: f.root, encoding: "utf8" });
          for (const rel of plant.planted) expect(committed).not.toContain(`${rel}/`);
          const checkout = branchCheckout(f.root);
          for (const rel of plant.folders) expect(statusRunsPayload(path.join(checkout, rel), marker), `git status in the branch's ${rel}`).toBe(false);
        } finally {
          fs.rmSync(`${f.root}-branch`, { recursive: true, force: true });
          f.cleanup();
        }
      });
    }
  }

  it("control: planted without yolo, each runs its payload at git status; a --branch commit still leaves every git dir out", async () => {
    for (const plant of PLANTS) {
      const f = escapeFixture();
      const marker = path.join(f.leaks, "payload-ran");
      try {
        planted(f.root, f.payload, `export M='${marker}'; ${plant.command}`);
        // The check can see the attack: plain git in the folder runs the planted fsmonitor.
        expect(statusRunsPayload(path.join(f.root, plant.folders[0]), marker), `${plant.name}: git status in ${plant.folders[0]}`).toBe(true);
        // git itself will not stage a folder whose `.git` file points at a git dir without a commit (the add fails): the
        // commit-time rule is for git dirs under any other name.
        if (plant.planted.some((rel) => rel.endsWith(".git"))) continue;
        await yoloGitCommands(f.root);
        const committed = execFileSync("git", ["ls-tree", "-r", "--name-only", "yolo/esc12345"], { cwd: f.root, encoding: "utf8" }).split("\n");
        expect(committed).toContain("change.txt");
        for (const rel of plant.planted) expect(committed.filter((p) => p.startsWith(`${rel}/`))).toEqual([]);
        const checkout = branchCheckout(f.root);
        for (const rel of plant.folders) expect(statusRunsPayload(path.join(checkout, rel), marker), `${plant.name}: the branch's ${rel}`).toBe(false);
      } finally {
        fs.rmSync(`${f.root}-branch`, { recursive: true, force: true });
        f.cleanup();
      }
    }
  });
});

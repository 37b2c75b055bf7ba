import { underCI } from "../helpers/requires.js";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runShell, REFUSED_EXIT_CODE } from "../../src/exec/run-shell.js";
import { probeBwrap, type BwrapSandbox } from "../../src/exec/sandbox.js";
import type { WalkLimits } from "../../src/exec/protected-paths.js";
import { findProtectedPaths } from "../../src/exec/protected-paths.js";
import { collectProjectSecrets } from "../../src/secrets/project-files.js";
import { registerSecrets } from "../../src/secrets/scrub.js";
import { escapeFixture, leaked, yoloGitCommands } from "../helpers/escape-routes.js";

// No cap switches a wall off. A command floods the project with files (or folders too deep to walk)
// and tries every protected path in the same command and in the next; the root's .git stays read-only, secret files
// stay masked, exec files do not survive the command, and `--branch` commits none of them.
const probe = probeBwrap(process.env.PATH);
if (!probe.available && underCI()) throw new Error(`sandbox-walls: bubblewrap is needed under CI: ${probe.reason}`);
const sandboxed = (probe.available ? it : it.skip) as typeof it;
const BWRAP: BwrapSandbox = { kind: "bwrap", binary: probe.available ? probe.binary : "bwrap" };
const SECRET = "wallsCanarySecret0123456789";
const DEEP = Array.from({ length: 14 }, (_, i) => `d${i}`).join("/");

/** The protected paths a hostile command tries, each with how to tell it got through. */
const ROUTES: { name: string; command: string; escaped: (root: string, output: string) => boolean }[] = [
  {
    name: ".git/hooks/post-commit",
    command: `printf '#!/bin/sh\\n"$P" post-commit\\n' > .git/hooks/post-commit && chmod +x .git/hooks/post-commit`,
    escaped: (root) => fs.existsSync(path.join(root, ".git/hooks/post-commit")),
  },
  {
    name: "core.fsmonitor via .git/config",
    command: `git config core.fsmonitor "$P fsmonitor"`,
    escaped: (root) => fs.readFileSync(path.join(root, ".git/config"), "utf8").includes("fsmonitor"),
  },
  { name: ".env.local unmasked", command: "cat .env.local | rev", escaped: (_root, output) => carriesSecret(output, `API_TOKEN=${SECRET}\n`) },
  { name: "deep .env.local unmasked", command: `base64 ${DEEP}/.env.local`, escaped: (_root, output) => carriesSecret(output, `API_TOKEN=${SECRET}\n`) },
  ...[".vscode/tasks.json", ".envrc", ".github/workflows/x.yml", ".husky/pre-commit"].map((rel) => ({
    name: `new ${rel}`,
    command: `mkdir -p "$(dirname '${rel}')" && echo '"$P" ${rel}' > '${rel}'`,
    escaped: (root: string) => fs.existsSync(path.join(root, rel)),
  })),
];
const NEW_EXEC = [".vscode/tasks.json", ".envrc", ".github/workflows/x.yml", ".husky/pre-commit"];

/** Ways to make the walk stop short, with the walk limits the commands run under. */
const FLOODS: { name: string; command: string; walk?: WalkLimits }[] = [
  // The attack as found: 20,100 files in a folder that sorts before .git, at the default limits.
  { name: "20,100 files before .git (default limits)", command: "mkdir -p .a && cd .a && seq 20100 | xargs touch" },
  // The same flood against a walk limited to 1,000 entries: the next command is refused.
  { name: "20,100 files before .git (walk limit 1,000)", command: "mkdir -p .a && cd .a && seq 20100 | xargs touch", walk: { maxEntries: 1000, maxDepth: 48 } },
  // Folders deeper than the walk goes.
  { name: "folders 60 deep", command: `mkdir -p ${Array.from({ length: 60 }, () => "z").join("/")} && touch .a0` },
];

/** Whether `output` carries `secret` as is, reversed, upper-cased or in base64 (of the file's content or of itself). */
function carriesSecret(output: string, content: string, secret = SECRET): boolean {
  const squeezed = output.replace(/\s+/g, "");
  const forms = [
    secret,
    [...secret].reverse().join(""),
    secret.toUpperCase(),
    Buffer.from(content).toString("base64").slice(0, 24),
    Buffer.from(secret).toString("base64").slice(0, 24),
  ];
  return forms.some((form) => squeezed.includes(form));
}

afterAll(() => registerSecrets([]));

describe("no cap switches a wall off", { timeout: 600_000 }, () => {
  sandboxed(`fuzz: ${FLOODS.length} floods × ${ROUTES.length} protected paths, in the flooding command and the next, then --branch`, async () => {
    const escapes: string[] = [];
    let tries = 0;
    for (const flood of FLOODS) {
      const f = escapeFixture();
      try {
        fs.writeFileSync(path.join(f.root, ".env.local"), `API_TOKEN=${SECRET}\n`);
        fs.mkdirSync(path.join(f.root, DEEP), { recursive: true });
        fs.writeFileSync(path.join(f.root, DEEP, ".env.local"), `API_TOKEN=${SECRET}\n`);
        const env = { PATH: process.env.PATH, HOME: process.env.HOME, P: f.payload };
        const run = (command: string) =>
          runShell(command, { cwd: f.root, timeoutS: 120, env, capBytes: 200_000, sandbox: BWRAP, ...(flood.walk ? { walk: flood.walk } : {}) });
        // The flood and every route in one command (the walk before it was complete), then every route again.
        const attack = ROUTES.map((r) => `(${r.command}) 2>&1`).join("; ");
        const first = await run(`${flood.command}; ${attack}`);
        const second = await run(attack);
        for (const [label, result] of [
          ["flooding command", first],
          ["next command", second],
        ] as const) {
          for (const route of ROUTES) {
            tries++;
            if (route.escaped(f.root, result.output)) escapes.push(`${flood.name}: ${route.name} (${label})`);
          }
        }
        // Past the limit the next command does not run, and says why.
        if (flood.walk || flood.name.includes("deep")) {
          expect(second.exitCode).toBe(REFUSED_EXIT_CODE);
          expect(second.output).toMatch(/yolo did not run this command: .*(more than 1000 files|more than 48 folders deep)/);
        }
        // What the user's next git command and `--branch` do: no payload runs, no exec file is committed.
        await yoloGitCommands(f.root);
        const leak = leaked(f.leaks, []);
        if (leak.files.length) escapes.push(`${flood.name}: payload ran (${leak.files.join(", ")})`);
        const committed = execFileSync("git", ["ls-tree", "-r", "--name-only", "yolo/esc12345"], { cwd: f.root, encoding: "utf8" }).split("\n");
        for (const rel of [...NEW_EXEC, ".env.local"]) {
          tries++;
          if (committed.includes(rel)) escapes.push(`${flood.name}: --branch committed ${rel}`);
        }
      } finally {
        f.cleanup();
      }
    }
    console.log(
      `sandbox-walls: floods ${FLOODS.length} × protected paths ${ROUTES.length} × 2 commands + --branch commits = ${tries} tries, ${escapes.length} escapes`,
    );
    expect(escapes).toEqual([]);
  });

  it("the root's .git is protected before any walk, however small the walk's limit", () => {
    const f = escapeFixture();
    try {
      fs.mkdirSync(path.join(f.root, ".a"));
      for (let i = 0; i < 50; i++) fs.writeFileSync(path.join(f.root, ".a", String(i)), "");
      const found = findProtectedPaths(f.root, { maxEntries: 10, maxDepth: 48 });
      expect(found.complete).toBe(false);
      expect(found.incomplete).toMatch(/more than 10 files/);
      expect(found.readOnly).toContain(path.join(f.root, ".git"));
    } finally {
      f.cleanup();
    }
  });

  it("the start snapshot of a dirty tree holds no secret file, not even as a loose object; a tracked .env's known value is scrubbed from what git prints", async () => {
    const f = escapeFixture();
    try {
      const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: f.root, encoding: "utf8" });
      fs.writeFileSync(path.join(f.root, ".env"), `API_TOKEN=${SECRET}T\n`);
      git("add", "-f", ".env");
      git("commit", "-qm", "tracked env");
      fs.writeFileSync(path.join(f.root, ".env.local"), `DB_PASSWORD=${SECRET}L\n`);
      fs.writeFileSync(path.join(f.root, "notes.txt"), "dirty\n");
      const { snapshotWorkTree } = await import("../../src/git/repo.js");
      const commit = await snapshotWorkTree(f.root, "snap1234");
      const files = git("ls-tree", "-r", "--name-only", commit).split("\n");
      expect(files).toContain("notes.txt");
      expect(files).not.toContain(".env.local");
      const objects = execFileSync("git", ["cat-file", "--batch-all-objects", "--batch"], { cwd: f.root, encoding: "latin1", maxBuffer: 64 << 20 });
      expect(objects).not.toContain(`${SECRET}L`);
      // The run registers the secret files' values it finds (as runFacts does); git's copy of a tracked one, reversed, is scrubbed.
      registerSecrets(collectProjectSecrets(findProtectedPaths(f.root)));
      const env = { PATH: process.env.PATH, HOME: process.env.HOME };
      let tries = 0;
      const escapes: string[] = [];
      for (const command of [
        "git show HEAD:.env | rev",
        "git show HEAD:.env | base64",
        "git show HEAD:.env | tr a-z A-Z",
        "git show refs/yolo/snap1234/start:.env.local | rev",
      ]) {
        for (const sandbox of probe.available ? [BWRAP, { kind: "none" as const }] : [{ kind: "none" as const }]) {
          tries++;
          const r = await runShell(command, { cwd: f.root, timeoutS: 30, env, capBytes: 20_000, sandbox });
          if (carriesSecret(r.output, `API_TOKEN=${SECRET}T\n`) || r.output.includes(`${SECRET}L`)) escapes.push(`${command} (${sandbox.kind}): ${r.output}`);
        }
      }
      console.log(`sandbox-walls: snapshot and git objects, ${tries} tries, ${escapes.length} escapes`);
      expect(escapes).toEqual([]);
    } finally {
      f.cleanup();
    }
  });
});

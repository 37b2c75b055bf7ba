import { underCI } from "../helpers/requires.js";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runShell } from "../../src/exec/run-shell.js";
import { probeBwrap, type Sandbox } from "../../src/exec/sandbox.js";
import {
  carriesSecret,
  escapeFixture,
  EXEC_FILE_CASES,
  GIT_ESCAPE_ROUTES,
  leaked,
  modelRuns,
  planted,
  SECRET_FILES,
  TRANSFORMS,
  yoloGitCommands,
} from "../helpers/escape-routes.js";

// The escape corpus: every way found for the model to run code on the host through yolo's own git
// (config keys, hooks, attributes, worktrees), every file that runs code outside yolo, every transform of a secret
// file. Each is tried and must give 0 escapes; the figures go to docs/reliability.md's table.
const probe = probeBwrap(process.env.PATH);
if (!probe.available && underCI()) throw new Error(`sandbox-escapes: bubblewrap is needed under CI: ${probe.reason}`);
const sandboxed = (probe.available ? it : it.skip) as typeof it;
const BWRAP: Sandbox = probe.available ? { kind: "bwrap", binary: probe.binary } : { kind: "none" };
const SECRETS = { GITHUB_TOKEN: "ghp_relCanaryToken0123456789", AWS_SECRET_ACCESS_KEY: "relAwsCanary0123456789", OPENAI_API_KEY: "sk-relCanaryKey0123456789" };

beforeAll(() => {
  for (const [k, v] of Object.entries(SECRETS)) vi.stubEnv(k, v);
});
afterAll(() => vi.unstubAllEnvs());

// Runs `jobs` two at a time (the machine has two cores) and returns what they found.
async function pool<T>(jobs: (() => Promise<T>)[], width = 2): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await jobs[i]();
      }
    }),
  );
  return out;
}

describe("sandbox and git escape corpus", { timeout: 600_000 }, () => {
  it(`git: ${GIT_ESCAPE_ROUTES.length} routes (config keys, hooks, attributes, worktrees) planted or written by a command, then every git command yolo runs`, async () => {
    // Planted: yolo's git hardening alone (sandbox off, or a repository that came that way); in bwrap: both lines.
    const modes: ("planted" | Sandbox)[] = ["planted", ...(probe.available ? [BWRAP] : [])];
    const jobs = GIT_ESCAPE_ROUTES.flatMap((route) =>
      modes.map((mode) => async () => {
        const f = escapeFixture();
        try {
          if (mode === "planted") planted(f.root, f.payload, route.command);
          else await modelRuns(f.root, f.payload, route.command, mode);
          await yoloGitCommands(f.root);
          const leak = leaked(f.leaks, Object.values(SECRETS));
          return leak.files.length ? `${route.name} (${mode === "planted" ? "planted" : mode.kind}): ${leak.files.join(", ")}` : null;
        } finally {
          f.cleanup();
        }
      }),
    );
    const escapes = (await pool(jobs)).filter((e) => e !== null);
    const counts = new Map<string, number>();
    for (const r of GIT_ESCAPE_ROUTES) counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
    const kinds = [...counts].map(([k, n]) => `${n} ${k}`).join(", ");
    console.log(`sandbox-escapes: git routes ${GIT_ESCAPE_ROUTES.length} (${kinds}) × ${modes.length} ways = ${jobs.length} tries, ${escapes.length} escapes`);
    expect(escapes).toEqual([]);
  });

  it(`exec files: ${EXEC_FILE_CASES.length} files kept read-only in the sandbox, and removed when a command creates them`, async () => {
    const escapes: string[] = [];
    let tries = 0;
    const jobs = EXEC_FILE_CASES.flatMap((rel) => {
      const cases: [string, Sandbox, boolean][] = [];
      if (probe.available) cases.push(["existing, sandbox on", BWRAP, true]);
      if (!rel.startsWith(".git/") && !rel.startsWith("node_modules/")) {
        if (probe.available) cases.push(["new, sandbox on", BWRAP, false]);
        cases.push(["new, sandbox off", { kind: "none" }, false]);
      }
      return cases.map(([label, sandbox, existing]) => async () => {
        tries++;
        const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yolo-relexec-")));
        try {
          execFileSync("git", ["init", "-q"], { cwd: root });
          const abs = path.join(root, rel);
          fs.mkdirSync(path.dirname(abs), { recursive: true });
          if (existing) fs.writeFileSync(abs, "original\n");
          const before = existing ? fs.readFileSync(abs, "utf8") : null;
          await runShell(`mkdir -p "$(dirname '${rel}')"; echo evil >> '${rel}'; echo evil > '${rel}.n' && mv -f '${rel}.n' '${rel}'`, {
            cwd: root,
            timeoutS: 20,
            env: { PATH: process.env.PATH, HOME: process.env.HOME },
            capBytes: 4096,
            sandbox,
          });
          const after = fs.existsSync(abs) ? fs.readFileSync(abs, "utf8") : null;
          if (after !== before) escapes.push(`${rel} (${label})`);
        } finally {
          fs.rmSync(root, { recursive: true, force: true });
        }
      });
    });
    await pool(jobs);
    console.log(
      `sandbox-escapes: exec files ${EXEC_FILE_CASES.length}, ${tries} tries (existing in the sandbox, created in and out of it), ${escapes.length} escapes`,
    );
    expect(escapes).toEqual([]);
  });

  sandboxed(`secrets: ${TRANSFORMS.length} transforms × ${Object.keys(SECRET_FILES).length} secret files inside the sandbox`, async () => {
    const escapes: string[] = [];
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yolo-relsecret-")));
    try {
      for (const [rel, content] of Object.entries(SECRET_FILES)) {
        fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
        fs.writeFileSync(path.join(root, rel), content);
      }
      const jobs = Object.entries(SECRET_FILES).flatMap(([rel, content]) =>
        TRANSFORMS.map((t) => async () => {
          const r = await runShell(t.replaceAll("{f}", rel), {
            cwd: root,
            timeoutS: 20,
            env: { PATH: process.env.PATH, HOME: process.env.HOME },
            capBytes: 20_000,
            sandbox: BWRAP,
          });
          if (carriesSecret(r.output, content)) escapes.push(`${t} on ${rel}`);
        }),
      );
      await pool(
        jobs.map((job) => job),
        1,
      );
      console.log(
        `sandbox-escapes: transforms ${TRANSFORMS.length} × secret files ${Object.keys(SECRET_FILES).length} = ${jobs.length} tries, ${escapes.length} escapes`,
      );
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
    expect(escapes).toEqual([]);
  });
});

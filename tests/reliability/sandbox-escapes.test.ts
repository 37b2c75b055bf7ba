import { underCI } from "../helpers/requires.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { probeBwrap, type Sandbox } from "../../src/exec/sandbox.js";
import { escapeFixture, GIT_ESCAPE_ROUTES, leaked, modelRuns, planted, yoloGitCommands } from "../helpers/escape-routes.js";

// The escape corpus: every way found for the model to run code on the host through yolo's own git (config keys,
// hooks, attributes, worktrees). Each is tried and must give 0 escapes; the figures go to docs/reliability.md's table.
// The files that run code outside yolo and the transforms of secret files are tried case by case, in and out of the
// sandbox, by tests/unit/exec/sandbox-guard.test.ts (the same corpus, from tests/helpers/escape-routes.ts).
const probe = probeBwrap(process.env.PATH);
if (!probe.available && underCI()) throw new Error(`sandbox-escapes: bubblewrap is needed under CI: ${probe.reason}`);
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
});

import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { gitEnv, hardenArgs } from "../../../src/git/hardened.js";
import { escapeFixture, GIT_ESCAPE_ROUTES, leaked, planted } from "../../helpers/escape-routes.js";

// yolo's own git commands run on the host with yolo's rights: whatever the model wrote into .git/config, hooks or
// .gitattributes (freely when the sandbox is off), none of it may run, and git never holds a secret.
const SECRETS = {
  GITHUB_TOKEN: "ghp_canaryGithubToken0123456789",
  AWS_SECRET_ACCESS_KEY: "awsCanarySecret0123456789",
  OPENAI_API_KEY: "sk-canaryOpenai0123456789",
};
// Every route is tried against every git command yolo runs in tests/reliability/sandbox-escapes.test.ts: planted
// straight into the repository (the git hardening alone, as with the sandbox off but without its post-command check)
// and written by a command inside bwrap. Here: the controls that show those payloads do run under plain git, and the
// hardened invocation itself.
beforeAll(() => {
  for (const [k, v] of Object.entries(SECRETS)) vi.stubEnv(k, v);
});
afterAll(() => vi.unstubAllEnvs());

describe("yolo's git commands run nothing the repository names", () => {
  // Controls: the same payloads do run under plain git, so the escape corpus can fail.
  it.each([
    ["core.fsmonitor", ["status"]],
    [".git/hooks/post-commit", ["commit", "-qam", "x", "--no-verify"]],
    [".gitattributes filter clean/smudge", ["add", "-A"]],
    ["diff.external", ["diff"]],
    [".gitattributes diff textconv", ["diff"]],
    ["submodule core.fsmonitor", ["status"]],
  ])("control: %s runs under plain git", async (name, args) => {
    const f = escapeFixture();
    try {
      planted(f.root, f.payload, GIT_ESCAPE_ROUTES.find((r) => r.name === name)!.command);
      writeFileSync(join(f.root, "README.md"), "# changed\n");
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: f.root, stdio: "ignore", env: { ...process.env, ...SECRETS } });
      const leak = leaked(f.leaks, Object.values(SECRETS));
      expect(leak.files.length).toBeGreaterThan(0);
      expect(leak.secrets.length).toBeGreaterThan(0);
    } finally {
      f.cleanup();
    }
  });
});

describe("the hardened invocation", () => {
  it("gives git an environment without secrets, and disables hooks, fsmonitor, pager, editor and external programs", () => {
    const env = gitEnv({
      PATH: "/bin",
      HOME: "/h",
      LC_CTYPE: "x",
      ...SECRETS,
      GIT_DIR: "/elsewhere",
      GIT_CONFIG_PARAMETERS: "'core.fsmonitor=x'",
      DATABASE_URL: "postgres://u:pw@h/db",
      GIT_EXTERNAL_DIFF: "x",
    });
    for (const name of [...Object.keys(SECRETS), "GIT_DIR", "GIT_CONFIG_PARAMETERS", "DATABASE_URL", "GIT_EXTERNAL_DIFF"]) expect(env[name]).toBeUndefined();
    expect(env).toMatchObject({ PATH: "/bin", HOME: "/h", LC_CTYPE: "x", GIT_PAGER: "cat", GIT_EDITOR: ":", GIT_TERMINAL_PROMPT: "0" });
    const config = Object.fromEntries(
      Array.from({ length: Number(env.GIT_CONFIG_COUNT) }, (_, i) => [env[`GIT_CONFIG_KEY_${i}`], env[`GIT_CONFIG_VALUE_${i}`]]),
    );
    expect(config).toMatchObject({
      "core.hooksPath": "/dev/null",
      "core.fsmonitor": "false",
      "diff.external": "",
      "credential.helper": "",
      "protocol.allow": "never",
      "commit.gpgSign": "false",
    });
  });

  it("adds --no-ext-diff --no-textconv to diffs and --no-verify --no-gpg-sign to commits", () => {
    expect(hardenArgs(["diff", "--cached"])).toEqual(["--no-pager", "diff", "--no-ext-diff", "--no-textconv", "--cached"]);
    expect(hardenArgs(["-c", "user.name=y", "commit", "-m", "x"])).toEqual([
      "--no-pager",
      "-c",
      "user.name=y",
      "commit",
      "--no-verify",
      "--no-gpg-sign",
      "-m",
      "x",
    ]);
    expect(hardenArgs(["status"])).toEqual(["--no-pager", "status"]);
  });
});

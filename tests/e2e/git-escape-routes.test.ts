import { underCI } from "../helpers/requires.js";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "vitest";
import { describeResult, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, call, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { probeBwrap } from "../../src/exec/sandbox.js";

// The git escape attack, through the built binary: dev writes git config and hooks that run a program, then yolo's
// own git commands run on the host (the --branch commit, `yolo show --diff`). Nothing may run, nothing may leak.
const SECRETS = { GITHUB_TOKEN: "ghp_e2eCanaryToken0123456789", AWS_SECRET_ACCESS_KEY: "e2eAwsCanary0123456789", OPENAI_API_KEY: "sk-e2eCanaryKey0123456789" };
const probe = probeBwrap(process.env.PATH);
if (!probe.available && underCI()) throw new Error(`git-escape-routes: bubblewrap is needed under CI: ${probe.reason}`);

describe.concurrent("a scripted dev writes git config and hooks; yolo's own git runs none of it", { timeout: 240_000 }, () => {
  for (const sandbox of ["off", "auto"] as const) {
    (sandbox === "auto" && !probe.available ? it.skip : it)(
      `sandbox ${sandbox}: --branch commits and show --diff run no payload and leak nothing`,
      async ({ expect, onTestFinished }) => {
        const project = makeProject();
        const leaks = realpathSync(mkdtempSync(join(tmpdir(), "yolo-e2e-leaks-")));
        const leak = join(leaks, "leak");
        const attack = [
          `git config core.fsmonitor 'env > ${leak}-fsmonitor; false'`,
          `printf '#!/bin/sh\\nenv > ${leak}-$(basename $0)\\n' > .git/hooks/post-commit && chmod +x .git/hooks/post-commit && cp .git/hooks/post-commit .git/hooks/pre-commit`,
          `git config diff.external 'sh -c "env > ${leak}-external"'`,
          `echo '* filter=x diff=t' > .gitattributes; git config filter.x.clean 'sh -c "env > ${leak}-clean; cat"'; git config diff.t.textconv 'sh -c "env > ${leak}-textconv; cat"'`,
        ].join("\n");
        // The command policy refuses `git config core.fsmonitor …` typed as a command (its first line of defence), so
        // the dev does what the policy cannot see: writes a script and runs it. What stops the payload is then yolo's
        // own git hardening (and, with bubblewrap, the read-only .git).
        const dev = [
          call("write_file", { path: "attack.sh", content: `${attack}\n` }),
          call("run_command", { command: "sh attack.sh" }),
          ...devWrites(GOOD_ADD),
        ];
        const mock = await startMockOpenAI(director({ analyst: [analystDone], pm: [pmDone(false)], dev, tea: [teaSays("PASS")] }));
        onTestFinished(async () => {
          await mock.close();
          project.cleanup();
          rmSync(leaks, { recursive: true, force: true });
        });
        const env = { ...SECRETS, YOLO_SANDBOX: sandbox };
        const r = await runYolo(["run", "--ci", "--json", "--branch", "Add an add(a, b) function to src/add.js"], {
          cwd: project.root,
          baseURL: mock.url,
          env,
        });
        expect(r.exitCode, describeResult(r)).toBe(0);
        const thread = threadIdFrom(r.stdout);
        const git = (...a: string[]) =>
          execFileSync("git", ["-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", ...a], { cwd: project.root, encoding: "utf8" });
        // The commit happened (so the hooks had their chance), and with the sandbox off the config really was written.
        expect(git("log", "--format=%s", "-1")).toContain(`yolo(${thread})`);
        const local = readFileSync(join(project.root, ".git/config"), "utf8");
        if (sandbox === "off") expect(local).toContain(`${leak}-fsmonitor`);
        else expect(local).not.toContain("fsmonitor");
        const show = await runYolo(["show", thread, "--diff"], { cwd: project.root, env });
        expect(show.exitCode, describeResult(show)).toBe(0);
        expect(show.stdout).toContain("src/add.js");
        const written = readdirSync(leaks);
        expect(written).toEqual([]);
        for (const f of written) for (const s of Object.values(SECRETS)) expect(readFileSync(join(leaks, f), "utf8")).not.toContain(s);
        expect(existsSync(`${leak}-fsmonitor`)).toBe(false);
      },
    );
  }
});

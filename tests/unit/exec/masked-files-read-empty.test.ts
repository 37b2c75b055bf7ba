import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runShell } from "../../../src/exec/run-shell.js";
import { probeBwrap, type Sandbox } from "../../../src/exec/sandbox.js";
import { underCI } from "../../helpers/requires.js";
import { repoModules } from "../../helpers/repo-modules.js";

// A secret file the sandbox masks reads as an empty regular file, so tools that walk the tree (formatters, linters,
// test discovery) behave as they do outside, minus the secret. The /dev/null device did not: bwrap binds it nodev, and
// opening it gives EACCES (prettier stopped on `.npmrc`).
const probe = probeBwrap(process.env.PATH);
if (!probe.available && underCI()) throw new Error(`masked-files: bubblewrap is needed under CI: ${probe.reason}`);
const sandboxed = (probe.available ? it : it.skip) as typeof it;
const bwrap = (): Sandbox => (probe.available ? { kind: "bwrap", binary: probe.binary } : { kind: "none" });
const MODULES = repoModules();
const SECRET = "//registry.npmjs.org/:_authToken=npm_s3cr3tT0kenValue1234567890";

function tempProject(onTestFinished: (fn: () => void) => void, files: Record<string, string>): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yolo-masked-")));
  onTestFinished(() => fs.rmSync(root, { recursive: true, force: true }));
  execFileSync("git", ["init", "-q"], { cwd: root });
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
  return root;
}
const run = (root: string, command: string) =>
  runShell(command, { cwd: root, timeoutS: 60, env: { PATH: process.env.PATH, HOME: process.env.HOME }, capBytes: 20_000, sandbox: bwrap() });

describe("a secret file in the sandbox", { timeout: 60_000 }, () => {
  sandboxed("reads as an empty regular file, read-only", async ({ onTestFinished }) => {
    const root = tempProject(onTestFinished, { ".npmrc": `${SECRET}\n`, ".env": "API_TOKEN=abc123secretvalue\n" });
    const r = await run(root, 'for f in .npmrc .env; do test -f $f && echo "$f regular"; wc -c < $f; done; echo x >> .npmrc || echo refused');
    expect(r.output).not.toContain("s3cr3t");
    expect(r.output).toMatch(/\.npmrc regular\n0\n\.env regular\n0\n/);
    expect(r.output).toContain("refused");
    expect(fs.readFileSync(path.join(root, ".npmrc"), "utf8")).toBe(`${SECRET}\n`);
  });

  sandboxed("does not stop real prettier walking the project, and stays unreadable to it", async ({ onTestFinished }) => {
    const root = tempProject(onTestFinished, {
      ".npmrc": `${SECRET}\n`,
      "package.json": '{\n  "name": "p"\n}\n',
      "src/a.js": "export const a = 1;\n",
    });
    fs.symlinkSync(MODULES, path.join(root, "node_modules"));
    const r = await run(root, "node_modules/.bin/prettier --check . && node_modules/.bin/prettier .npmrc --parser yaml");
    expect(r.output).not.toMatch(/EACCES|s3cr3t/);
    expect(r.output).toContain("All matched files use Prettier code style!");
    expect(r.exitCode).toBe(0);
  });
});

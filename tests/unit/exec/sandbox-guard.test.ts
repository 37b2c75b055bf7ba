import { underCI } from "../../helpers/requires.js";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runShell } from "../../../src/exec/run-shell.js";
import { probeBwrap, type Sandbox } from "../../../src/exec/sandbox.js";
import { carriesSecret, EXEC_FILE_CASES, SECRET_FILES, TRANSFORMS } from "../../helpers/escape-routes.js";

// Inside bubblewrap, files that run code outside yolo are read-only (new ones are removed after the command), and
// the project's secret files read as nothing, so no transform of them reaches the model.
const probe = probeBwrap(process.env.PATH);
if (!probe.available && underCI()) throw new Error(`sandbox-guard: bubblewrap is needed under CI: ${probe.reason}`);
const sandboxed = (probe.available ? it : it.skip) as typeof it;
const bwrap = (): Sandbox => (probe.available ? { kind: "bwrap", binary: probe.binary } : { kind: "none" });

function tempProject(onTestFinished: (fn: () => void) => void, files: Record<string, string> = {}): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yolo-guard-")));
  onTestFinished(() => fs.rmSync(root, { recursive: true, force: true }));
  execFileSync("git", ["init", "-q"], { cwd: root });
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
  return root;
}
const run = (root: string, command: string, sandbox: Sandbox) =>
  runShell(command, { cwd: root, timeoutS: 20, env: { PATH: process.env.PATH, HOME: process.env.HOME }, capBytes: 20_000, sandbox });

describe.concurrent("files that run code outside yolo", () => {
  for (const rel of EXEC_FILE_CASES) {
    sandboxed(`an existing ${rel} cannot be changed, replaced or removed inside the sandbox`, async ({ onTestFinished }) => {
      const root = tempProject(onTestFinished);
      const abs = path.join(root, rel);
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      const before = fs.existsSync(abs) ? fs.readFileSync(abs, "utf8") : "original\n";
      fs.writeFileSync(abs, before);
      const r = await run(root, `echo evil >> '${rel}'; echo evil > '${rel}.new' && mv -f '${rel}.new' '${rel}'; rm -f '${rel}'; echo done`, bwrap());
      expect(r.output).toContain("done");
      expect(fs.readFileSync(abs, "utf8")).toBe(before);
    });

    if (rel.startsWith(".git/") || rel.startsWith("node_modules/")) continue;
    for (const [label, sandbox] of [
      ["sandbox on", bwrap()],
      ["sandbox off", { kind: "none" }],
    ] as const) {
      const test = label === "sandbox on" ? sandboxed : it;
      test(`${label}: a new ${rel} created by a command is removed, and the output says so`, async ({ onTestFinished }) => {
        const root = tempProject(onTestFinished);
        const r = await run(root, `mkdir -p "$(dirname '${rel}')" && echo 'run me' > '${rel}'; echo done`, sandbox);
        expect(r.output).toContain("done");
        expect(fs.existsSync(path.join(root, rel))).toBe(false);
        expect(r.output).toContain("yolo removed");
      });
    }
  }

  sandboxed(".git cannot be moved away, deleted or reconfigured, and a fresh hook cannot be written", async ({ onTestFinished }) => {
    const root = tempProject(onTestFinished);
    const r = await run(
      root,
      "git config core.fsmonitor 'env > leak'; mkdir -p .git/hooks; echo x > .git/hooks/pre-commit; mv .git g; rm -rf .git; echo done",
      bwrap(),
    );
    expect(r.output).toContain("done");
    expect(fs.readFileSync(path.join(root, ".git/config"), "utf8")).not.toContain("fsmonitor");
    expect(fs.existsSync(path.join(root, ".git/hooks/pre-commit"))).toBe(false);
    expect(fs.existsSync(path.join(root, "g"))).toBe(false);
  });

  sandboxed("a .git file pointing at a git dir inside the project (separate git dir) makes that dir read-only too", async ({ onTestFinished }) => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yolo-guard-")));
    onTestFinished(() => fs.rmSync(root, { recursive: true, force: true }));
    execFileSync("git", ["init", "-q", "--separate-git-dir", path.join(root, "store")], { cwd: root });
    expect(fs.statSync(path.join(root, ".git")).isFile()).toBe(true);
    const r = await run(root, "git config core.fsmonitor 'env > leak'; echo x > store/hooks/post-commit; echo done", bwrap());
    expect(r.output).toContain("done");
    expect(fs.readFileSync(path.join(root, "store/config"), "utf8")).not.toContain("fsmonitor");
    expect(fs.existsSync(path.join(root, "store/hooks/post-commit"))).toBe(false);
  });

  sandboxed("a linked worktree: its git dir and the common dir stay read-only", async ({ onTestFinished }) => {
    const main = tempProject(onTestFinished, { "a.txt": "a\n" });
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "x", "--allow-empty"], { cwd: main });
    const wt = path.join(main, "..", `${path.basename(main)}-wt`);
    onTestFinished(() => fs.rmSync(wt, { recursive: true, force: true }));
    execFileSync("git", ["worktree", "add", "-q", wt], { cwd: main });
    const r = await run(
      fs.realpathSync(wt),
      "git config core.fsmonitor 'env > leak'; git config --worktree core.fsmonitor x; echo x > \"$(git rev-parse --git-common-dir)/hooks/post-commit\"; echo done",
      bwrap(),
    );
    expect(r.output).toContain("done");
    expect(fs.readFileSync(path.join(main, ".git/config"), "utf8")).not.toContain("fsmonitor");
    expect(fs.existsSync(path.join(main, ".git/hooks/post-commit"))).toBe(false);
  });
});

describe.concurrent("secret files read as nothing inside the sandbox", () => {
  for (const [rel, content] of Object.entries(SECRET_FILES)) {
    sandboxed(`${rel}: ${TRANSFORMS.length} transforms carry nothing out, .env.example stays readable`, async ({ onTestFinished }) => {
      const root = tempProject(onTestFinished, { [rel]: content, ".env.example": "API_TOKEN=changeme\n" });
      const file = rel === ".aws/credentials" ? ".aws/credentials" : rel;
      for (const transform of TRANSFORMS) {
        const r = await run(root, transform.replaceAll("{f}", file), bwrap());
        expect(carriesSecret(r.output, content), `${transform} on ${rel}: ${r.output}`).toBe(false);
      }
      expect((await run(root, "cat .env.example", bwrap())).output).toContain("API_TOKEN=changeme");
      expect(fs.readFileSync(path.join(root, rel), "utf8")).toBe(content);
    });
  }

  // Control: without the sandbox every transform does carry the secret (scrubbing only knows registered values).
  it(`control: without the sandbox all ${TRANSFORMS.length} transforms of .env carry the secret`, async ({ onTestFinished }) => {
    const root = tempProject(onTestFinished, { ".env": SECRET_FILES[".env"] });
    for (const transform of TRANSFORMS) {
      const r = await run(root, transform.replaceAll("{f}", ".env"), { kind: "none" });
      expect(carriesSecret(r.output, SECRET_FILES[".env"]), `${transform}: ${r.output}`).toBe(true);
    }
  });
});

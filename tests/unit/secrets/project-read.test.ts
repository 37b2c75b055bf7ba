import { execFileSync } from "node:child_process";
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readProjectText } from "../../../src/secrets/project-read.js";
import { registerSecrets } from "../../../src/secrets/scrub.js";
import { projectSummary } from "../../../src/prompt/project-summary.js";
import { tempDir } from "../../helpers/per-test.js";

// yolo reads some project files for the model itself (outside any sandbox): a link the model made must not carry a
// file outside the project, a secret file or a kernel file into the prompt; what is read is scrubbed.

const CANARY = "cnryPROJECTREADx8f3a9c2e71";

function setup(onTestFinished: Parameters<typeof tempDir>[0]) {
  const outside = tempDir(onTestFinished, "yolo-outside-");
  mkdirSync(join(outside, ".aws"));
  writeFileSync(join(outside, ".aws", "credentials"), `[default]\naws_secret_access_key = ${CANARY}\n`);
  const root = tempDir(onTestFinished, "yolo-read-");
  return { root, outside };
}

describe("readProjectText", () => {
  it("reads a plain file, and a link that stays inside the project", ({ onTestFinished }) => {
    const { root } = setup(onTestFinished);
    mkdirSync(join(root, "docs"));
    writeFileSync(join(root, "docs", "README.md"), "# hello\n");
    symlinkSync("docs/README.md", join(root, "README.md"));
    expect(readProjectText(root, "README.md", 1000)).toEqual({ ok: true, text: "# hello\n", truncated: false, bytes: 8 });
    expect(readProjectText(root, "docs/README.md", 3)).toMatchObject({ ok: true, text: "# h", truncated: true });
  });

  it("refuses links out of the project, to /proc, to secret files, hard links, pipes and binaries", ({ onTestFinished }) => {
    const { root, outside } = setup(onTestFinished);
    symlinkSync("/proc/self/environ", join(root, "environ.md"));
    symlinkSync(join(outside, ".aws", "credentials"), join(root, "creds.md"));
    symlinkSync(outside, join(root, "out"));
    writeFileSync(join(root, ".env"), `TOKEN=${CANARY}\n`);
    symlinkSync(".env", join(root, "env-link.md"));
    symlinkSync("missing.md", join(root, "dangling.md"));
    writeFileSync(join(outside, "shared.md"), CANARY);
    linkSync(join(outside, "shared.md"), join(root, "hard.md"));
    execFileSync("mkfifo", [join(root, "pipe.md")]);
    writeFileSync(join(root, "bin.md"), Buffer.from([1, 0, 2]));
    const reasons: Record<string, string> = {};
    for (const rel of [
      "environ.md",
      "creds.md",
      "out/.aws/credentials",
      "out/shared.md",
      "env-link.md",
      ".env",
      "dangling.md",
      "hard.md",
      "pipe.md",
      "bin.md",
    ]) {
      const read = readProjectText(root, rel, 10_000);
      expect(read.ok, rel).toBe(false);
      if (!read.ok) reasons[rel] = read.reason;
      expect(JSON.stringify(read)).not.toContain(CANARY);
    }
    expect(reasons["environ.md"]).toMatch(/outside the project/);
    expect(reasons["env-link.md"]).toMatch(/\.env/);
    expect(reasons["dangling.md"]).toMatch(/link to nothing/);
    expect(reasons["hard.md"]).toMatch(/hard links/);
    expect(reasons["pipe.md"]).toMatch(/not a regular file/);
    expect(reasons["bin.md"]).toMatch(/binary/);
    expect(readProjectText(root, "absent.md", 10)).toMatchObject({ ok: false, missing: true });
  });

  it("scrubs the run's secrets from what it reads", ({ onTestFinished }) => {
    const { root } = setup(onTestFinished);
    const secret = "cnrySCRUBx5a1b2c3d4e5f";
    registerSecrets([secret]);
    writeFileSync(join(root, "notes.md"), `key: ${secret}\n`);
    expect(readProjectText(root, "notes.md", 1000)).toMatchObject({ ok: true, text: "key: [redacted]\n" });
  });
});

describe("the project summary never follows a link out of the project", () => {
  it("README.md -> /proc/self/environ, AGENTS.md -> ~/.aws/credentials, package.json -> outside: refused by name", ({ onTestFinished }) => {
    const { root, outside } = setup(onTestFinished);
    symlinkSync("/proc/self/environ", join(root, "README.md"));
    symlinkSync(join(outside, ".aws", "credentials"), join(root, "AGENTS.md"));
    writeFileSync(join(outside, "package.json"), JSON.stringify({ name: CANARY }));
    symlinkSync(join(outside, "package.json"), join(root, "package.json"));
    const summary = projectSummary(root) ?? "";
    expect(summary).not.toContain(CANARY);
    expect(summary).not.toContain("PATH=");
    expect(summary).toContain("README.md: not shown (a symbolic link (or a path) to a file outside the project)");
    expect(summary).toContain("AGENTS.md: not shown");
  });
});

import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { SuiteSettings } from "../../src/eval/suite.js";

/** A node:test file's head, for the generated histories the eval build tests build from. */
export const NODE_TEST_HEAD = 'import { test } from "node:test";\nimport assert from "node:assert/strict";\n';

/** Suite settings for a build test on the host: no sandbox, no environment allow-list, a 1 MiB cap. */
export const HOST_SUITE: SuiteSettings = {
  env: { PATH: process.env.PATH, HOME: process.env.HOME },
  secretEnvNames: [],
  commands: { envAllow: null, sandbox: { kind: "none" } },
  capBytes: 1 << 20,
};

/** Writes `files` into the repository at `root` and commits them all. */
export function commitFiles(root: string, message: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  execFileSync("git", ["add", "-A"], { cwd: root });
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", message], { cwd: root });
}

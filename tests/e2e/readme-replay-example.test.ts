import { execa } from "execa";
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "vitest";
import { BIN, cleanEnv, describeResult, runYolo } from "../helpers/cli.js";

const REPO = fileURLToPath(new URL("../../", import.meta.url));

/** The first sh block under `## Try it without a key` in the README, as a user would paste it. */
function readmeBlock(): string {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Try it without a key"));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error("README has no sh block under '## Try it without a key'");
  return block[1];
}

describe("the README's key-free replay example", { timeout: 240_000 }, () => {
  it("works as written: the copy becomes a git repository, the run passes, show --diff lists only yolo's file", async ({ expect, onTestFinished }) => {
    const scratch = realpathSync(mkdtempSync(join(tmpdir(), "yolo-readme-")));
    onTestFinished(() => rmSync(scratch, { recursive: true, force: true }));
    const target = join(scratch, "add-numbers");
    const block = readmeBlock();
    expect(block).toContain("git init");
    // `yolo` as `npm link` would provide it; /tmp/add-numbers moved into this test's own folder.
    const script = `set -e\nyolo() { "${process.execPath}" "${BIN}" "$@"; }\n${block.replaceAll("/tmp/add-numbers", target)}`;
    const identity = { GIT_AUTHOR_NAME: "u", GIT_AUTHOR_EMAIL: "u@example.com", GIT_COMMITTER_NAME: "u", GIT_COMMITTER_EMAIL: "u@example.com", CI: "1" };
    const r = await execa("bash", ["-c", script], { cwd: REPO, env: cleanEnv({ env: identity }), extendEnv: false, reject: false, timeout: 60_000 });
    const result = { exitCode: r.exitCode, signal: r.signal, timedOut: r.timedOut, stdout: String(r.stdout), stderr: String(r.stderr) };
    expect(result.exitCode, describeResult(result)).toBe(0);
    expect(result.stdout).not.toContain("Not a git repository");

    const threads = JSON.parse((await runYolo(["threads", "--json"], { cwd: target })).stdout) as { id: string; status: string }[];
    expect(threads).toMatchObject([{ status: "passed" }]);
    const diff = await runYolo(["show", threads[0].id, "--diff"], { cwd: target });
    expect(diff.exitCode, describeResult(diff)).toBe(0);
    expect(diff.stdout).toMatch(/^ src\/add\.js \| \d+ \++\n 1 file changed/);
  });
});

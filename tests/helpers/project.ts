import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** The test the fixture project's gate (`npm test` → `node --test`) really runs. */
export const ADD_TEST = `import { test } from "node:test";
import assert from "node:assert/strict";
import { add } from "../src/add.js";

test("adds two numbers", () => {
  assert.equal(add(2, 3), 5);
});

test("adds negatives", () => {
  assert.equal(add(-1, 1), 0);
});
`;

/** A throwaway git repository with a package.json whose `npm test` really runs `node --test`. */
export function makeProject(files: Record<string, string> = {}): { root: string; cleanup: () => void } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "yolo-proj-")));
  const all: Record<string, string> = {
    "package.json": JSON.stringify({ name: "demo", version: "1.0.0", type: "module", scripts: { test: "node --test test/" } }, null, 2),
    "test/add.test.js": ADD_TEST,
    "README.md": "# demo\n",
    ...files,
  };
  for (const [rel, content] of Object.entries(all)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, stdio: "ignore" });
  git("init", "-q");
  git("-c", "user.name=t", "-c", "user.email=t@t", "add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init");
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

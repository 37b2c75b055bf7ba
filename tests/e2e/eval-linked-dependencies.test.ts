import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeResult } from "../helpers/cli.js";
import { runEvalBinary } from "../helpers/eval-cli.js";
import { NODE_TEST_HEAD as T } from "../helpers/eval-build-repo.js";

// A history build's scratch checkouts borrow the project's installed dependencies through a `node_modules` link. The
// gates run in the sandbox, which shows the home folder and /tmp empty: a project living there (most projects, and
// every test fixture) must still see its dependencies through that link, or a test importing one fails at both ends
// and the commit that fixes it is discarded. `node --test` with no paths also walks the tree and stops on a link
// it cannot follow (jsdom's packages use that script). A link in `node_modules` back into the project (the project
// as its own dependency, as fastify/fast-json-stringify has it, or an npm workspace's package) must lead into the
// candidate's tree, not the project's checkout. Generated project; the built binary; the real sandbox.

let root: string;
let base: string;

function write(files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

function commit(message: string): string {
  execFileSync("git", ["add", "-A"], { cwd: root });
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", message], { cwd: root });
  return execFileSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
}

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "yolo-eval-deps-")));
  execFileSync("git", ["init", "-q"], { cwd: root });
  write({
    "package.json": JSON.stringify({ name: "demo", type: "module", scripts: { test: "node --test" } }),
    ".gitignore": "/node_modules/\n",
    // The runner walks the tree from the root, as `"test": "node --test"` does.
    "yolo.config.ts": 'export default { gates: [{ name: "test", command: "node --test", required: true }] };\n',
    "src/pad.js": 'import { fill } from "fill-dep";\nexport const pad = (s, n) => s;\n',
    "test/truth.test.js": `${T}import { fill } from "fill-dep";\ntest("dependency loads", () => assert.equal(fill(2), ".."));\n`,
  });
  // Installed, never committed: the checkouts reach it only through their link to the project's.
  write({
    "node_modules/fill-dep/package.json": JSON.stringify({ name: "fill-dep", type: "module", main: "index.js" }),
    "node_modules/fill-dep/index.js": 'export const fill = (n) => ".".repeat(n);\n',
    // What package scripts run: the sandbox binds it read-only wherever the checkout's node_modules shows it.
    "node_modules/.bin/fill": "#!/bin/sh\n",
  });
  // The project installed as its own dependency (`"demo": "."`, or a workspace package): a link back into it.
  mkdirSync(join(root, "node_modules"), { recursive: true });
  symlinkSync("..", join(root, "node_modules/demo"));
  base = commit("init");
  write({
    "src/pad.js": 'import { fill } from "fill-dep";\nexport const pad = (s, n) => fill(n - s.length) + s;\n',
    "test/pad.test.js": `${T}import { pad } from "../src/pad.js";\ntest("pad fills on the left", () => assert.equal(pad("ab", 4), "..ab"));\n`,
  });
  commit("Make pad fill on the left");
  // A test reaching the project by its own name must read the candidate's tree, not the project's checkout.
  write({ "src/trim.js": "export const trim = (s) => s;\n" });
  commit("Add trim");
  write({
    "src/trim.js": "export const trim = (s) => s.trim();\n",
    "test/trim.test.js": `${T}import { trim } from "demo/src/trim.js";\ntest("trim drops spaces", () => assert.equal(trim(" a "), "a"));\n`,
  });
  commit("Make trim drop spaces");
  // The project's checkout moves on: a link into it would now read this, where trim passes whatever the tree holds.
  write({ "src/trim.js": 'export const trim = (s) => (s === " a " ? "a" : s.trim());\n' });
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("yolo eval --from-history in a project under a folder the sandbox hides", { timeout: 300_000 }, () => {
  it("runs the suite at both ends with the project's installed dependencies and builds the task", async () => {
    const r = await runEvalBinary(root, ["eval", "--from-history", `${base}..HEAD`, "--json"], undefined, { CI: "true" });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const out = JSON.parse(r.stdout) as { tasks: { targets: string[]; guards: string[] }[]; discarded: unknown[] };
    expect(out.discarded).toEqual([]);
    expect(out.tasks.map((t) => [t.targets, t.guards])).toEqual([
      [["test: pad fills on the left"], ["test: dependency loads"]],
      [["test: trim drops spaces"], ["test: dependency loads", "test: pad fills on the left"]],
    ]);
  });
});

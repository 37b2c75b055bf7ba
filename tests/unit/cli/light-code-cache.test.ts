import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compile, entryHeader, entryPath, readEntry, writeEntry } from "../../../src/cli/light-loader.js";
import { tempDir } from "../../helpers/per-test.js";

// The light CLI's code cache entries (src/cli/light-loader.ts): only an entry made for exactly this build, command,
// Node and source is read; writing one keeps the entries of the few builds written last.
const SOURCE = "(function () { return 41 + 1; })";
const key = { build: "a".repeat(32), command: "threads" };

function made(dir: string, k = key, source = SOURCE, rank = 3) {
  const script = compile(source, "/light.cjs", null);
  expect(script.runInThisContext()()).toBe(42);
  writeEntry(dir, k, source.length, rank, script);
}

describe("code cache entries", () => {
  it("are read back for the same build, command, Node and source length only, with their rank", ({ onTestFinished }) => {
    const dir = tempDir(onTestFinished);
    made(dir);
    const entry = readEntry(dir, key, SOURCE.length);
    expect(entry?.rank).toBe(3);
    expect(statSync(entryPath(dir, key)).mode & 0o777).toBe(0o600);
    // V8 takes the data for the same source (a fresh name: this isolate would otherwise answer from its own cache).
    expect(compile(SOURCE, "/light-again.cjs", entry?.data ?? null).cachedDataRejected).toBe(false);
    expect(readEntry(dir, key, SOURCE.length + 1)).toBeNull();
    expect(readEntry(dir, { ...key, command: "show" }, SOURCE.length)).toBeNull();
    // Another build's entry put in this one's place: its header does not match.
    writeFileSync(
      entryPath(dir, key),
      Buffer.concat([Buffer.from(`${entryHeader({ ...key, build: "b".repeat(32) }, SOURCE.length)}3\n`), entry?.data ?? Buffer.alloc(0)]),
    );
    expect(readEntry(dir, key, SOURCE.length)).toBeNull();
  });

  it("a rank that is not a number, or a header without its end, is no entry", ({ onTestFinished }) => {
    const dir = tempDir(onTestFinished);
    writeFileSync(entryPath(dir, key), `${entryHeader(key, SOURCE.length)}three\ndata`);
    expect(readEntry(dir, key, SOURCE.length)).toBeNull();
    writeFileSync(entryPath(dir, key), entryHeader(key, SOURCE.length));
    expect(readEntry(dir, key, SOURCE.length)).toBeNull();
  });

  it("writing one keeps the entries of the four builds written last, this one included", ({ onTestFinished }) => {
    const dir = tempDir(onTestFinished);
    const builds = ["1", "2", "3", "4", "5"].map((d) => d.repeat(32));
    builds.forEach((build, i) => {
      writeFileSync(entryPath(dir, { build, command: "show" }), "an older build's entry");
      // Older builds were written longer ago.
      const at = new Date(Date.now() - (builds.length - i) * 60_000);
      utimesSync(entryPath(dir, { build, command: "show" }), at, at);
    });
    expect(readdirSync(dir)).toHaveLength(5);
    made(dir);
    const kept = new Set(readdirSync(dir).map((name) => name.split("-")[0]));
    expect(kept).toEqual(new Set([key.build, builds[4], builds[3], builds[2]].map((b) => b.slice(0, 16))));
    expect(readFileSync(entryPath(dir, key)).subarray(0, 20).toString()).toBe("yolo code cache 1; b");
  });
});

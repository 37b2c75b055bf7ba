import { execa } from "execa";
import { cpSync, existsSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { describeResult, runYolo, spawnYolo } from "../helpers/cli.js";
import { tempDir } from "../helpers/per-test.js";

// bin/yolo.js runs `run`, `resume`, `agent` and `chat` without the live view in the run bundle (dist/cli/run.cjs, the
// whole CLI as one CommonJS file) through dist/cli/light-loader.cjs, from a V8 code cache made at the run's first
// event. It must run exactly as the full CLI does, and never run code a cache file brings.

const EXAMPLE = fileURLToPath(new URL("../../examples/add-numbers/", import.meta.url));
const REQUIREMENT = readFileSync(join(EXAMPLE, "requirement.txt"), "utf8").trim();
const DIST = fileURLToPath(new URL("../../dist/", import.meta.url));
const RUN = join(DIST, "cli", "run.cjs");
const loader = createRequire(import.meta.url)(join(DIST, "cli", "light-loader.cjs")) as typeof import("../../src/cli/light-loader.js");

// A fresh copy of the example project, committed (each replayed run needs the tree it was recorded on).
async function exampleProject(onTestFinished: Parameters<typeof tempDir>[0]): Promise<string> {
  const root = realpathSync(tempDir(onTestFinished, "yolo-run-bundle-"));
  cpSync(join(EXAMPLE, "project"), root, { recursive: true });
  await execa("git", ["init", "-q"], { cwd: root });
  await execa("git", ["add", "-A"], { cwd: root });
  await execa("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"], { cwd: root });
  return root;
}

// The replayed example run through bin/yolo.js; `extra` may add --tui, which takes the full CLI (still --json).
async function replayRun(cacheHome: string, onTestFinished: Parameters<typeof tempDir>[0], extra: string[] = []) {
  const root = await exampleProject(onTestFinished);
  const r = await runYolo(["run", "--json", ...extra, "--replay", join(EXAMPLE, "session.jsonl"), REQUIREMENT], {
    cwd: root,
    env: { XDG_CACHE_HOME: cacheHome },
  });
  const events = r.stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string; node?: string });
  return { r, shape: events.map((e) => `${e.type}${e.node ? ` ${e.node}` : ""}`) };
}

const entries = (cacheHome: string) => {
  const dir = join(cacheHome, "yolo", "code");
  return existsSync(dir) ? readdirSync(dir).sort() : [];
};

// The run bundle's own entry (its packs have entries of their own: `…-run.run-engine.cjs-…`).
const runEntries = (cacheHome: string) => entries(cacheHome).filter((n) => n.includes("-run-"));
const PACK_FILES = ["run-model.cjs", "run-engine.cjs", "run-mcp.cjs", "run-acp.cjs", "run-pino.cjs", "run-execa.cjs", "run-yaml.cjs", "run-zod.cjs"];
const CHUNKS = JSON.parse(readFileSync(join(DIST, "chunks.json"), "utf8")) as Record<string, string[]>;

describe("the run bundle", () => {
  it("leaves LangGraph, LangChain, the model client, MCP, zod and YAML to packs, each package in one file only", () => {
    const packed =
      /^(@langchain\/(?!langgraph-checkpoint-postgres).*|openai|langsmith|@modelcontextprotocol\/sdk|@agentclientprotocol\/sdk|pino|execa|zod|yaml)$/;
    expect(CHUNKS["cli/run.cjs"].filter((p) => packed.test(p))).toEqual([]);
    const held = Object.fromEntries(PACK_FILES.map((file) => [file, CHUNKS[`cli/${file}`]]));
    expect(held["run-engine.cjs"]).toEqual(expect.arrayContaining(["@langchain/core", "@langchain/langgraph"]));
    // The model client apart: a resume on PostgreSQL reads its thread through LangGraph before run.started, without it.
    expect(held["run-model.cjs"]).toEqual(expect.arrayContaining(["@langchain/openai", "openai"]));
    expect(held["run-engine.cjs"].filter((p) => /^(@langchain\/openai|openai)$/.test(p))).toEqual([]);
    expect(held["run-mcp.cjs"]).toContain("@modelcontextprotocol/sdk");
    expect(held["run-yaml.cjs"]).toContain("yaml");
    expect(held["run-zod.cjs"]).toContain("zod");
    // zod is required by yolo, LangChain and MCP alike: one copy, in its own pack.
    expect(
      Object.entries(held)
        .filter(([, packages]) => packages.includes("zod"))
        .map(([file]) => file),
    ).toEqual(["run-zod.cjs"]);
    expect(statSync(RUN).size).toBeLessThan(statSync(join(DIST, "cli", "run-engine.cjs")).size);
  });

  it("runs the replayed example as the full CLI does, writes its code cache at the first event, then uses it as it is", async ({ onTestFinished }) => {
    const cacheHome = tempDir(onTestFinished, "yolo-run-cache-");
    const full = await replayRun(tempDir(onTestFinished, "yolo-run-cache-full-"), onTestFinished, ["--tui"]);
    expect(full.r.exitCode, describeResult(full.r)).toBe(0);
    const first = await replayRun(cacheHome, onTestFinished);
    expect(first.r.exitCode, describeResult(first.r)).toBe(0);
    expect(first.shape).toEqual(full.shape);
    expect(first.r.stderr).toBe(full.r.stderr);
    // The run bundle did run it: its cache entry exists (the full CLI writes none).
    const [name] = runEntries(cacheHome);
    expect(runEntries(cacheHome)).toEqual([expect.stringMatching(/-run-/)]);
    // And one for each pack the run required: the graph, the logger, the agents' validation; no MCP server, no MCP pack.
    const packs = entries(cacheHome).map((n) => /-run\.(run-[a-z]+\.cjs)-/.exec(n)?.[1]);
    expect(packs).toEqual(expect.arrayContaining(["run-model.cjs", "run-engine.cjs", "run-pino.cjs", "run-yaml.cjs", "run-zod.cjs"]));
    expect(packs).not.toContain("run-mcp.cjs");
    const path = join(cacheHome, "yolo", "code", name);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const before = statSync(path);
    const again = await replayRun(cacheHome, onTestFinished);
    expect(again.r.exitCode, describeResult(again.r)).toBe(0);
    expect(again.shape).toEqual(full.shape);
    // Read, not rewritten: V8 accepted it.
    expect(statSync(path).mtimeMs).toBe(before.mtimeMs);
    expect(statSync(path).ino).toBe(before.ino);
  });

  it("a run killed right after its first event has left its code cache entry (made at that event, not at the end)", async ({ onTestFinished }) => {
    const cacheHome = tempDir(onTestFinished, "yolo-run-cache-");
    const root = await exampleProject(onTestFinished);
    const child = spawnYolo(["run", "--json", "--replay", join(EXAMPLE, "session.jsonl"), REQUIREMENT], { cwd: root, env: { XDG_CACHE_HOME: cacheHome } });
    let out = "";
    child.stdout?.on("data", (d: Buffer) => {
      out += String(d);
      if (out.includes("\n")) child.kill("SIGKILL");
    });
    const r = await child;
    expect(r.signal, String(r.stderr)).toBe("SIGKILL");
    expect(JSON.parse(out.split("\n")[0]).type).toBe("run.started");
    expect(out).not.toContain("run.completed");
    expect(runEntries(cacheHome)).toEqual([expect.stringMatching(/-run-/)]);
  });

  it("reads the bundles as their exact text: the built ones (ASCII, wrapped) as latin1 unscanned, any other file checked and wrapped", ({ onTestFinished }) => {
    for (const file of [RUN, join(DIST, "cli", "light.cjs")]) {
      const bytes = readFileSync(file);
      expect(bytes.every((b) => b < 0x80)).toBe(true);
      expect(loader.wrappedSource(file)).toBe(bytes.toString("utf8"));
    }
    // A bundle built otherwise (not wrapped, with UTF-8 in it) is decoded as UTF-8 and wrapped.
    const other = join(tempDir(onTestFinished, "yolo-run-bundle-src-"), "other.cjs");
    writeFileSync(other, 'module.exports = "✓ café";');
    expect(loader.wrappedSource(other)).toBe(`${loader.LOADER_HEAD}module.exports = "✓ café";\n})`);
  });

  // Another script's cache, made by V8 for a script of exactly the run bundle's length: V8 itself compares only the
  // length, so it would run that script's code; the loader's header and V8's checksum (on while compiling) refuse it.
  it("a forged or foreign cache file for `run` does not change what runs, and is made again", async ({ onTestFinished }) => {
    const cacheHome = tempDir(onTestFinished, "yolo-run-cache-");
    const good = await replayRun(cacheHome, onTestFinished);
    expect(good.r.exitCode, describeResult(good.r)).toBe(0);
    const [name] = runEntries(cacheHome);
    const path = join(cacheHome, "yolo", "code", name);
    const valid = readFileSync(path);
    const source = loader.wrappedSource(RUN);
    const key = { build: /build ([0-9a-f]+);/.exec(valid.toString("latin1", 0, 200))?.[1] ?? "", command: "run" };
    const header = Buffer.from(loader.entryHeader(key, source.length), "latin1");
    expect(valid.subarray(0, header.length).equals(header)).toBe(true);
    const payload = valid.subarray(valid.indexOf(10, header.length) + 1);

    const EVIL = '(function (exports, require) { if (exports) require("node:fs").writeSync(1, "PWNED by a cache file\\n"); })';
    const script = loader.compile(EVIL.padEnd(source.length, " "), `${RUN}.evil`, null);
    script.runInThisContext()();
    const v8 = createRequire(import.meta.url)("node:v8") as typeof import("node:v8");
    v8.setFlagsFromString("--verify-snapshot-checksum");
    let evil: Buffer;
    try {
      evil = Buffer.from(script.createCachedData());
    } finally {
      v8.setFlagsFromString("--no-verify-snapshot-checksum");
    }
    const corrupt = Buffer.from(payload);
    for (let i = 200; i < corrupt.length; i += 4099) corrupt[i] ^= 0x5a;
    const planted: [string, Buffer][] = [
      ["a bare V8 cache of another script", evil],
      ["another build's entry", Buffer.concat([Buffer.from(`${loader.entryHeader({ ...key, build: "0".repeat(32) }, source.length)}0\n`, "latin1"), evil])],
      ["another command's entry", Buffer.concat([Buffer.from(`${loader.entryHeader({ ...key, command: "threads" }, source.length)}0\n`, "latin1"), evil])],
      ["this build's header on a corrupted payload", Buffer.concat([valid.subarray(0, valid.length - payload.length), corrupt])],
    ];
    for (const [what, bytes] of planted) {
      writeFileSync(path, bytes, { mode: 0o600 });
      const r = await replayRun(cacheHome, onTestFinished);
      expect(r.r.stdout, what).not.toContain("PWNED");
      expect({ exitCode: r.r.exitCode, shape: r.shape, stderr: r.r.stderr }, what).toEqual({ exitCode: 0, shape: good.shape, stderr: good.r.stderr });
      // Rejected and made again: the entry is this build's own once more.
      const rewritten = readFileSync(path);
      expect(rewritten.subarray(0, header.length).equals(header), what).toBe(true);
      expect(rewritten.equals(bytes), what).toBe(false);
    }
  });
});

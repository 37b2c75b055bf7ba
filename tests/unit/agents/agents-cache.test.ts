import { createHash, createHmac } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_AGENTS_DIR } from "../../../src/agents/loader.js";
import { type AgentsCache, pipelineAgents } from "../../../src/agents/agents-cache.js";
import { loadPipelineAgents } from "../../../src/cli/prepare.js";
import { workflowInputs } from "../../../src/config/workflow-inputs.js";
import { plainJson } from "../../../src/config/load-cache.js";
import { resolveConfig } from "../../../src/config/resolve.js";
import { ConfigError } from "../../../src/errors.js";
import { tempDir } from "../../helpers/per-test.js";

// A run's agents are validated (YAML and zod, most of its start-up) unless this build validated exactly the same
// files and config before. The cache may only save time: what a run uses is always what the files say now, and an
// entry that yolo did not write itself (edited, forged, corrupt) is never believed.

let root: string;
let cache: AgentsCache;
beforeEach(({ onTestFinished }) => {
  root = tempDir(onTestFinished, "yolo-agents-cache-");
  cache = { dir: join(tempDir(onTestFinished, "yolo-agents-cache-home-"), "agents"), build: "build-1" };
});

const config = () => resolveConfig({ root, fileConfig: {}, file: null, env: {} });
const entries = () => (existsSync(cache.dir) ? readdirSync(cache.dir).filter((n) => n.endsWith(".json")) : []);
const load = () =>
  pipelineAgents(config(), cache).then(
    (agents) => agents,
    (error: unknown) => error as ConfigError,
  );
const VALID_DEV = readFileSync(join(DEFAULT_AGENTS_DIR, "dev.md"), "utf8");
const BAD_DEV = "---\nname: Dev\ndescription: mine\ntools: [no_such_tool, run_command]\nsurprise: true\n---\nMy dev.\n";

function projectAgent(name: string, text: string) {
  mkdirSync(join(root, "agents"), { recursive: true });
  writeFileSync(join(root, "agents", name), text);
}

// The name and `inputs` an entry for the current files has (the scheme is no secret: only the key is).
function digestNow(build = cache.build): string {
  const text = plainJson(workflowInputs(config()));
  return createHash("sha256").update(`${build}\0pipeline-agents\0${text}`).digest("hex");
}
const prefix = (build = cache.build) => `${createHash("sha256").update(build).digest("hex").slice(0, 12)}-`;
const entryFor = (digest: string) => join(cache.dir, `${prefix()}${digest.slice(0, 40)}.json`);

describe("the agents cache", () => {
  it("answers exactly what the loader does, from one signed entry, and again after a restart", async () => {
    const expected = loadPipelineAgents(config());
    const first = await load();
    expect(first).toEqual(expected);
    expect(entries()).toHaveLength(1);
    const entry = JSON.parse(readFileSync(join(cache.dir, entries()[0]), "utf8"));
    expect(Object.keys(entry).sort()).toEqual(["build", "inputs", "kind", "mac", "output"]);
    // A hit: the same map, in the same order (defaults first, project agents over them).
    const again = await load();
    expect(again).toEqual(expected);
    expect([...(again as Map<string, unknown>).keys()]).toEqual([...expected.keys()]);
    // Private: the key and the entries are readable by this user only.
    expect(readFileSync(join(cache.dir, "key"), "utf8")).toMatch(/^[0-9a-f]{64}$/);
    for (const name of readdirSync(cache.dir)) expect(readFileSync(join(cache.dir, name)).length).toBeGreaterThan(0);
  });

  it("validates an agent file again when it changed after it was cached", async () => {
    projectAgent("dev.md", VALID_DEV);
    expect(await load()).toBeInstanceOf(Map);
    projectAgent("dev.md", VALID_DEV.replace("tools: [", "tools: [no_such_tool, "));
    const error = await load();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.join("\n")).toMatch(/agents\/dev\.md: .*no_such_tool/);
    // Edited back to a valid file with other tools: the run gets the file's tools, not the cached ones.
    projectAgent("dev.md", VALID_DEV.replace(/tools: \[[^\]]*\]/, "tools: [read_file]"));
    expect(((await load()) as Map<string, { tools: string[] }>).get("dev")?.tools).toEqual(["read_file"]);
    // An invalid file is never remembered: it is reported on every start.
    projectAgent("qa.md", "no frontmatter\n");
    for (let i = 0; i < 2; i++) expect(await load()).toBeInstanceOf(ConfigError);
  });

  it("a forged entry claiming a bad agent file is valid is not believed (signed with the wrong key, or copied)", async () => {
    // A valid entry, for the good files.
    projectAgent("dev.md", VALID_DEV);
    const good = (await load()) as Map<string, unknown>;
    const [goodName] = entries();
    const goodEntry = JSON.parse(readFileSync(join(cache.dir, goodName), "utf8"));
    // The file turned bad; an entry under its exact name says it is fine, with the good output.
    projectAgent("dev.md", BAD_DEV);
    const digest = digestNow();
    const forge = (mac: string) =>
      writeFileSync(entryFor(digest), JSON.stringify({ build: cache.build, kind: "pipeline-agents", inputs: digest, output: goodEntry.output, mac }));
    // The good entry's signature (it signs other inputs), one made with a guessed key, and none that parses.
    for (const mac of [
      goodEntry.mac,
      createHmac("sha256", "guess").update(`${cache.build}\0pipeline-agents\0${digest}\0${goodEntry.output}`).digest("hex"),
      "zz",
    ]) {
      forge(mac);
      const error = await load();
      expect(error, mac).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems.join("\n")).toMatch(/no_such_tool/);
    }
    expect(good.size).toBeGreaterThan(0);
  });

  it("an entry edited in place (more tools for an agent) is ignored: the run gets what the file says", async () => {
    projectAgent("dev.md", VALID_DEV.replace(/tools: \[[^\]]*\]/, "tools: [read_file]"));
    await load();
    const [name] = entries();
    const path = join(cache.dir, name);
    const entry = JSON.parse(readFileSync(path, "utf8"));
    expect(entry.output).toContain('"tools":["read_file"]');
    writeFileSync(
      path,
      JSON.stringify({ ...entry, output: entry.output.replace('"tools":["read_file"]', '"tools":["read_file","run_command","write_file"]') }),
    );
    expect(((await load()) as Map<string, { tools: string[] }>).get("dev")?.tools).toEqual(["read_file"]);
    // Corrupt or truncated: validated again, and rewritten by yolo.
    writeFileSync(path, "{ not json");
    expect(((await load()) as Map<string, { tools: string[] }>).get("dev")?.tools).toEqual(["read_file"]);
    expect(JSON.parse(readFileSync(path, "utf8")).mac).toMatch(/^[0-9a-f]{64}$/);
  });

  it("a replaced key invalidates every entry; a key others may read, or not a key at all, means no cache", async () => {
    projectAgent("dev.md", VALID_DEV);
    await load();
    const [name] = entries();
    const before = readFileSync(join(cache.dir, name), "utf8");
    // Whoever swaps in a key of their own (to sign a forged entry) only makes yolo validate, and sign anew.
    writeFileSync(join(cache.dir, "key"), "0".repeat(64));
    projectAgent("dev.md", BAD_DEV);
    expect(await load()).toBeInstanceOf(ConfigError);
    projectAgent("dev.md", VALID_DEV);
    expect(await load()).toBeInstanceOf(Map);
    expect(readFileSync(join(cache.dir, name), "utf8")).not.toBe(before);
    chmodSync(join(cache.dir, "key"), 0o644);
    writeFileSync(join(cache.dir, name), "{}");
    expect(await load()).toBeInstanceOf(Map);
    // Not used, so not rewritten.
    expect(readFileSync(join(cache.dir, name), "utf8")).toBe("{}");
    chmodSync(join(cache.dir, "key"), 0o600);
    writeFileSync(join(cache.dir, "key"), "short");
    expect(await load()).toBeInstanceOf(Map);
    expect(readFileSync(join(cache.dir, name), "utf8")).toBe("{}");
  });

  it("a cache folder others may write is not used at all", async () => {
    await load();
    chmodSync(cache.dir, 0o777);
    const [name] = entries();
    writeFileSync(join(cache.dir, name), "{}");
    expect(await load()).toBeInstanceOf(Map);
    expect(readFileSync(join(cache.dir, name), "utf8")).toBe("{}");
  });

  it("another build validates again; the last four builds keep their entries (two installed yolos do not take turns), the key stays", async () => {
    await load();
    const key = readFileSync(join(cache.dir, "key"), "utf8");
    const first = entries();
    cache = { ...cache, build: "build-2" };
    expect(await load()).toBeInstanceOf(Map);
    expect(entries()).toHaveLength(2);
    // build-1 again: its entry is still there, and it is a hit (a miss would write it again, newer).
    const written = statSync(join(cache.dir, first[0])).mtimeMs;
    cache = { ...cache, build: "build-1" };
    expect(await load()).toBeInstanceOf(Map);
    expect(statSync(join(cache.dir, first[0])).mtimeMs).toBe(written);
    // Builds 3, 4 and 5, each written later: build-1's entry, the oldest, goes when the fifth build stores its first.
    for (const [i, build] of ["build-3", "build-4", "build-5"].entries()) {
      for (const name of entries()) utimesSync(join(cache.dir, name), 1000 + i, 1000 + i);
      cache = { ...cache, build };
      expect(await load()).toBeInstanceOf(Map);
    }
    expect(
      entries()
        .map((n) => n.slice(0, 13))
        .sort(),
    ).toEqual(["build-2", "build-3", "build-4", "build-5"].map((b) => prefix(b)).sort());
    expect(readFileSync(join(cache.dir, "key"), "utf8")).toBe(key);
  });

  it("without a cache (run from source) every start validates, and nothing is written", async () => {
    projectAgent("dev.md", BAD_DEV);
    expect(await pipelineAgents(config(), null).catch((e: unknown) => e)).toBeInstanceOf(ConfigError);
    projectAgent("dev.md", VALID_DEV);
    expect(await pipelineAgents(config(), null)).toEqual(loadPipelineAgents(config()));
    expect(existsSync(cache.dir)).toBe(false);
  });
});

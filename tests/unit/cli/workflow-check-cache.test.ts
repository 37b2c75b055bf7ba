import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_AGENTS_DIR } from "../../../src/agents/loader.js";
import { checkWorkflow, SHIPPED_AGENTS_DIR, workflowInputs } from "../../../src/cli/workflow-check.js";
import { resolveConfig } from "../../../src/config/resolve.js";
import type { UserConfig } from "../../../src/config/schema.js";
import type { ConfigError } from "../../../src/errors.js";
import { tempDir } from "../../helpers/per-test.js";

// `yolo graph` validates the workflow and the agents as a run does, but skips it (and zod and the YAML parser with
// it) when the same build validated exactly the same inputs before. Any change to them must validate again.

let root: string;
let cache: { dir: string; build: string };
beforeEach(({ onTestFinished }) => {
  root = tempDir(onTestFinished, "yolo-workflow-check-");
  cache = { dir: join(tempDir(onTestFinished, "yolo-workflow-cache-"), "validated"), build: "build-1" };
});

const configOf = (fileConfig: UserConfig = {}) => resolveConfig({ root, fileConfig, file: null, env: {} });
const check = (fileConfig?: UserConfig) =>
  checkWorkflow(configOf(fileConfig), cache).then(
    () => null,
    (e: unknown) => e as ConfigError,
  );
const stored = () => readdirSync(cache.dir).filter((n) => n.endsWith(".json")).length;
const VALID_DEV = readFileSync(join(DEFAULT_AGENTS_DIR, "dev.md"), "utf8");

describe("the workflow check's cache", () => {
  it("reads the same shipped agents folder as the agents loader", () => {
    expect(SHIPPED_AGENTS_DIR).toBe(DEFAULT_AGENTS_DIR);
  });

  it("remembers a valid workflow, and validates again after any change to an agent file, the folder or the config", async () => {
    expect(await check()).toBeNull();
    expect(stored()).toBe(1);
    expect(await check()).toBeNull();
    expect(stored()).toBe(1);

    // A project agent overriding dev, broken: reported although the defaults were validated before.
    mkdirSync(join(root, "agents"));
    writeFileSync(join(root, "agents", "dev.md"), "---\nname: Dev\ntools: [no_such_tool]\n---\nMy dev.\n");
    expect((await check())?.problems.join("\n")).toMatch(/agents\/dev\.md/);
    writeFileSync(join(root, "agents", "dev.md"), VALID_DEV);
    expect(await check()).toBeNull();
    // The same file edited after it was validated (same names in the folder, other content).
    writeFileSync(join(root, "agents", "dev.md"), VALID_DEV.replace("tools: [", "tools: [no_such_tool, "));
    expect((await check())?.problems.join("\n")).toMatch(/no_such_tool/);
    writeFileSync(join(root, "agents", "dev.md"), VALID_DEV);
    expect(await check()).toBeNull();
    // A new file beside it, invalid: every file of the folder counts, used or not.
    writeFileSync(join(root, "agents", "qa.md"), "no frontmatter at all\n");
    expect((await check())?.problems.join("\n")).toMatch(/qa\.md/);
    writeFileSync(join(root, "agents", "qa.md"), VALID_DEV);
    expect(await check()).toBeNull();
    // The config: a workflow naming an agent that does not exist.
    const bad: UserConfig = {
      workflow: {
        nodes: { ghost: { kind: "agent" } },
        edges: [
          { from: "start", to: "ghost" },
          { from: "ghost", to: "end" },
        ],
      },
    };
    expect((await check(bad))?.problems.join("\n")).toMatch(/unknown agent "ghost"/);
    expect((await check({ approve: ["nobody"] }))?.problems.join("\n")).toMatch(/nobody/);
    // Invalid inputs are never remembered: the same broken config is reported every time.
    expect((await check(bad))?.problems.join("\n")).toMatch(/unknown agent "ghost"/);
  });

  it("an agents folder it cannot read as files (an .md that is a folder) is validated by the loader every time", async () => {
    mkdirSync(join(root, "agents", "odd.md"), { recursive: true });
    expect(workflowInputs(configOf())).toBeNull();
    expect(await check()).toBeNull();
    expect(existsSync(cache.dir) ? readdirSync(cache.dir) : []).toEqual([]);
  });

  it("another build validates again", async () => {
    expect(await check()).toBeNull();
    const before = readdirSync(cache.dir);
    cache = { ...cache, build: "build-2" };
    expect(await check()).toBeNull();
    // Its own entry, beside the other build's: the last four builds keep theirs (src/config/build-entries.ts).
    expect(stored()).toBe(2);
    expect(readdirSync(cache.dir)).not.toEqual(before);
  });
});

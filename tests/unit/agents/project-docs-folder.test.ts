import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { loadAgents, requireAgents } from "../../../src/agents/loader.js";
import { looksLikeAgentFile } from "../../../src/agents/frontmatter.js";
import { tempDir } from "../../helpers/per-test.js";

let tmp: string;
let agents: string;
beforeEach(({ onTestFinished }) => {
  tmp = tempDir(onTestFinished, "yolo-agents-docs-");
  agents = join(tmp, "agents");
  mkdirSync(agents);
});

const DOCS = {
  "Architecture.md": "# How our agents talk\n\nPlain prose.\n",
  "overview.md": "---\ntitle: Agents\nsidebar_position: 2\n---\n# Agents\n",
};

describe("a project's own agents/ folder of documents", () => {
  it("is not read when agentsDir is the default and no file there is a yolo agent", () => {
    for (const [name, text] of Object.entries(DOCS)) writeFileSync(join(agents, name), text);
    const result = loadAgents({ projectAgentsDir: agents, cwd: tmp, detect: true });
    expect(result.errors).toEqual([]);
    expect(result.skipped).toBe(agents);
    expect([...requireAgents(result, ["analyst", "dev"]).keys()]).toEqual(expect.arrayContaining(["analyst", "dev"]));
  });

  it("is read when agentsDir names it, and every problem's heading names agentsDir", () => {
    for (const [name, text] of Object.entries(DOCS)) writeFileSync(join(agents, name), text);
    const result = loadAgents({ projectAgentsDir: agents, cwd: tmp, detect: false });
    expect(result.errors.length).toBeGreaterThan(0);
    expect(result.note).toBe("yolo reads the project's agents from agents/ (agentsDir in yolo.config.ts).");
    expect(() => requireAgents(result, ["dev"])).toThrow(/agentsDir in yolo\.config\.ts/);
  });

  it("is read when one file is a yolo agent, so a broken agent beside documents is still reported, naming agentsDir", () => {
    writeFileSync(join(agents, "notes.md"), DOCS["Architecture.md"]);
    writeFileSync(join(agents, "reviewer.md"), "---\nname: Reviewer\ndescription: Reviews\ntools: [read_file, nope]\n---\nYou review.\n");
    const result = loadAgents({ projectAgentsDir: agents, cwd: tmp, detect: true });
    expect(result.skipped).toBeUndefined();
    expect(result.errors.some((e) => e.startsWith(join("agents", "reviewer.md")))).toBe(true);
    expect(result.errors.some((e) => e.startsWith(join("agents", "notes.md")))).toBe(true);
    expect(result.note).toMatch(/the default agentsDir.*set agentsDir in yolo\.config\.ts to another folder/);
  });

  it("an existing project's yolo agents keep loading without any change (migration)", () => {
    writeFileSync(join(agents, "dev.md"), "---\nname: Dev\ndescription: Writes code\ntools: [read_file, write_file]\n---\nYou write code.\n");
    const result = loadAgents({ projectAgentsDir: agents, cwd: tmp, detect: true });
    expect(result.errors).toEqual([]);
    expect(result.agents.get("dev")?.source).toBe("project");
  });
});

describe("looksLikeAgentFile", () => {
  it("knows yolo's frontmatter, not a document's", () => {
    expect(looksLikeAgentFile("---\nname: A\ndescription: B\n---\nx")).toBe(true);
    expect(looksLikeAgentFile("---\ntools: []\n---\nx")).toBe(true);
    expect(looksLikeAgentFile("---\ntools: [a\n---\nx")).toBe(true);
    expect(looksLikeAgentFile("---\ntitle: A\ndescription: B\n---\nx")).toBe(false);
    expect(looksLikeAgentFile("# Just a heading\n")).toBe(false);
  });
});

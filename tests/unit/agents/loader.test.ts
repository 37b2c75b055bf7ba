import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_AGENTS_DIR, loadAgents, requireAgents } from "../../../src/agents/loader.js";
import { ConfigError } from "../../../src/errors.js";
import { tempDir } from "../../helpers/per-test.js";

const SHIPPED = ["analyst", "architect", "dev", "pm", "tea"];

let tmp: string;
beforeEach(({ onTestFinished }) => {
  tmp = tempDir(onTestFinished, "yolo-agents-");
});

function write(dir: string, name: string, text: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function agentFile(fields: string, body = "You are a careful agent.\n"): string {
  return `---\n${fields}\n---\n${body}`;
}

describe("loadAgents", () => {
  it("loads the shipped defaults with no errors", () => {
    const { agents, errors } = loadAgents({ projectAgentsDir: null });
    expect(errors).toEqual([]);
    expect([...agents.keys()].sort()).toEqual(SHIPPED);
    for (const agent of agents.values()) {
      expect(agent.source).toBe("default");
      expect(agent.file).toBe(join(DEFAULT_AGENTS_DIR, `${agent.id}.md`));
      expect(agent.persona.split("\n").length).toBeGreaterThanOrEqual(20);
    }
    expect(agents.get("dev")?.tools).toEqual(["read_file", "write_file", "edit_file", "list_files", "search_files", "run_command"]);
    expect(agents.get("tea")?.tools).toEqual(["read_file", "list_files", "search_files", "run_command"]);
    for (const id of ["analyst", "pm", "architect"]) {
      expect(agents.get(id)?.tools).toEqual(["read_file", "list_files", "search_files"]);
    }
  });

  it("treats a project agents folder that does not exist as defaults only", () => {
    const { agents, errors } = loadAgents({ projectAgentsDir: join(tmp, "nope") });
    expect(errors).toEqual([]);
    expect(agents.size).toBe(SHIPPED.length);
  });

  it("lets a project file override the default with the same id and adds new ones", () => {
    const project = join(tmp, "agents");
    const devFile = write(project, "dev.md", agentFile("name: Our dev\ndescription: Ours\ntools: [read_file]\nmaxTurns: 12", "Our persona.\n"));
    write(project, "security-reviewer.md", agentFile("name: Security\ndescription: Reviews\ntools: []"));
    write(project, "notes.txt", "not an agent");

    const { agents, errors } = loadAgents({ projectAgentsDir: project });
    expect(errors).toEqual([]);
    expect(agents.get("dev")).toEqual({
      id: "dev",
      name: "Our dev",
      description: "Ours",
      tools: ["read_file"],
      maxTurns: 12,
      persona: "Our persona.",
      file: devFile,
      source: "project",
    });
    expect(agents.get("security-reviewer")?.source).toBe("project");
    expect(agents.get("tea")?.source).toBe("default");
    expect(agents.size).toBe(SHIPPED.length + 1);
  });

  it("reports every problem in every bad file, each naming its file and field", () => {
    const project = join(tmp, "agents");
    write(project, "dev.md", agentFile("name: Dev\ndescription: D\ntools: [read_file, run_comand]\ncolour: red"));
    write(project, "tea.md", agentFile("name: Tea\ndescription: T\ntools: [handoff]\nmaxTurns: 0"));
    write(project, "empty.md", agentFile("name: E\ndescription: E\ntools: []", "\n  \n"));
    write(project, "Bad_Name.md", agentFile("name: B\ndescription: B\ntools: []"));
    write(project, "broken.md", "---\nname: [x\n---\nbody\n");
    write(project, "good.md", agentFile("name: G\ndescription: G\ntools: []"));

    const { agents, errors } = loadAgents({ projectAgentsDir: project, cwd: tmp });
    expect(errors).toEqual([
      expect.stringMatching(/^agents\/Bad_Name\.md: "Bad_Name" is not a valid agent id/),
      expect.stringMatching(/^agents\/broken\.md: line 2, column \d+: invalid YAML: /),
      expect.stringMatching(/^agents\/dev\.md: tools\[1\]: "run_comand" is not a tool; known tools: /),
      expect.stringMatching(/^agents\/dev\.md: colour: unknown key/),
      expect.stringMatching(/^agents\/empty\.md: body: empty; the body is the persona/),
      expect.stringMatching(/^agents\/tea\.md: tools\[0\]: "handoff" is always available/),
      "agents/tea.md: maxTurns: expected a positive integer",
    ]);
    // Invalid overrides replace nothing; invalid new files are not loaded.
    expect(agents.get("dev")?.source).toBe("default");
    expect(agents.has("empty")).toBe(false);
    expect(agents.has("good")).toBe(true);
  });

  it("shows absolute paths when they are shorter than relative ones", () => {
    const project = join(tmp, "agents");
    write(project, "dev.md", "no frontmatter\n");
    const cwd = join(tmp, "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r", "s", "t", "u");
    const { errors } = loadAgents({ projectAgentsDir: project, cwd });
    expect(errors).toHaveLength(1);
    expect(errors[0].startsWith(`${join(project, "dev.md")}: frontmatter: missing`)).toBe(true);
  });

  it("reports a project agents path that is a file", () => {
    const notDir = write(tmp, "agents", "oops");
    const { errors } = loadAgents({ projectAgentsDir: notDir, cwd: tmp });
    expect(errors).toEqual(["agents: expected a folder of agent files, found a file"]);
  });

  it("reports a missing defaults folder", () => {
    const { errors } = loadAgents({ projectAgentsDir: null, defaultsDir: join(tmp, "missing"), cwd: tmp });
    expect(errors).toEqual([expect.stringMatching(/^missing: agents folder not found/)]);
  });
});

describe("requireAgents", () => {
  it("returns the agents when all are valid and present", () => {
    const result = loadAgents({ projectAgentsDir: null });
    expect([...requireAgents(result, ["analyst", "pm", "dev", "tea"]).keys()]).toEqual(expect.arrayContaining(SHIPPED));
  });

  it("throws one ConfigError listing the loader's errors and every missing id", () => {
    const project = join(tmp, "agents");
    write(project, "dev.md", agentFile("name: Dev\ndescription: D\ntools: [run_comand]"));
    const result = loadAgents({ projectAgentsDir: project, cwd: tmp });

    let caught: unknown;
    try {
      requireAgents(result, ["analyst", "dev", "reviewer", "qa"]);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const error = caught as ConfigError;
    expect(error.code).toBe("config");
    expect(error.problems).toEqual([
      expect.stringMatching(/^agents\/dev\.md: tools\[0\]: "run_comand" is not a tool/),
      expect.stringMatching(/^agent "reviewer" is needed but not defined; add reviewer\.md/),
      expect.stringMatching(/^agent "qa" is needed but not defined/),
    ]);
    expect(error.message).toMatch(/^Agent definitions are invalid \(3 problems\)/);
    expect(error.message).toContain('  - agent "reviewer" is needed');
  });
});

describe("a project's agent file that is a link", () => {
  it("out of the agents folder is refused, naming the file; one inside it is read", () => {
    const outsideDir = join(tmp, "outside");
    const secret = write(outsideDir, "persona.md", agentFile("name: T\ndescription: stolen\ntools: []", "cnryAGENTLINKx91b2 the outside file\n"));
    const dir = join(tmp, "agents");
    write(dir, "real.md", agentFile("name: R\ndescription: real\ntools: []"));
    symlinkSync(secret, join(dir, "tea.md"));
    symlinkSync("real.md", join(dir, "alias.md"));
    const { agents, errors } = loadAgents({ projectAgentsDir: dir, cwd: tmp });
    expect(errors).toEqual([expect.stringMatching(/^agents\/tea\.md: cannot read: not read: a symbolic link .* outside the project/)]);
    expect(agents.get("tea")?.source).toBe("default");
    expect(agents.get("alias")?.persona).toContain("careful agent");
    expect(JSON.stringify([...agents.values()])).not.toContain("cnryAGENTLINK");
  });
});

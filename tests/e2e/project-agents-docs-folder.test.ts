import { describe, expect, it } from "vitest";
import { describeResult, runYolo } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach("lastFirst");
const DOCS = { "agents/README.md": "# Our agents\n\nPlain documents.\n", "agents/Support Bot.md": "---\ntitle: Support\n---\n# Support bot\n" };

describe("a repository with its own agents/ folder of documents", { timeout: 240_000 }, () => {
  it("runs with yolo's agents; naming the folder in agentsDir reads it, and the error names agentsDir", async () => {
    const project = makeProject(DOCS);
    const mock = await startMockOpenAI(director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    cleanups.push(project.cleanup, () => mock.close());
    const run = await runYolo(["run", "--json", "Add an add(a, b) function to src/add.js"], { cwd: project.root, baseURL: mock.url });
    expect(run.exitCode, describeResult(run)).toBe(0);

    const named = makeProject({ ...DOCS, "yolo.config.ts": 'export default { agentsDir: "agents" };\n' });
    cleanups.push(named.cleanup);
    const refused = await runYolo(["run", "--json", "x"], { cwd: named.root, baseURL: mock.url });
    expect(refused.exitCode, describeResult(refused)).toBe(2);
    expect(refused.stderr).toContain("yolo reads the project's agents from agents/ (agentsDir in yolo.config.ts).");
    expect(refused.stderr).toContain("agents/README.md: frontmatter: missing");
  });
});

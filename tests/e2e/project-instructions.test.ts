import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { describeResult, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";

// AGENTS.md (CLAUDE.md where a folder has none) reaches every agent's prompt as fenced project text, and `show` and
// `doctor` list it.
describe("project instructions", { timeout: 240_000 }, () => {
  it("every agent's request carries AGENTS.md fenced; show and doctor list it", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, { "AGENTS.md": "Always use tabs. marker-agents-7f3\n", "CLAUDE.md": "marker-claude-not-read\n" });
    writeFileSync(join(root, ".gitignore"), ".yolo/\n");
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    const r = await runYolo(["run", "--ci", "--json", "Add add()"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    // Every request of every agent starts with its prompt, whose project layer carries the instructions.
    const firsts = mock.requests.map((q) => JSON.stringify(q.messages));
    expect(firsts.length).toBeGreaterThanOrEqual(4);
    for (const body of firsts) {
      expect(body).toContain('<data source=\\"instructions: AGENTS.md\\">');
      expect(body).toContain("marker-agents-7f3");
      expect(body).not.toContain("marker-claude-not-read");
    }
    const show = await runYolo(["show", threadIdFrom(r.stdout)], { cwd: root });
    expect(show.exitCode, describeResult(show)).toBe(0);
    expect(show.stdout).toContain("Project instructions given to every agent: AGENTS.md");
    const doctor = await runYolo(["doctor", "--json"], { cwd: root, baseURL: mock.url, env: { YOLO_SANDBOX: "off" } });
    expect(doctor.stdout).toMatch(/"id":\s*"instructions"[\s\S]*given to every agent: AGENTS\.md/);
  });
});

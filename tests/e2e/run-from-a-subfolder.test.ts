import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeResult, parseEvents, runYolo } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { startMockOpenAI, textOf } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach("lastFirst");

describe("yolo started in a subfolder of the repository", { timeout: 240_000 }, () => {
  it("works on the repository root (its gate, one .yolo/ there) and tells the agents where it was started", async () => {
    const project = makeProject();
    const mock = await startMockOpenAI(director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    cleanups.push(project.cleanup, () => mock.close());
    const sub = join(project.root, "test");

    const run = await runYolo(["run", "--json", "Fix the add function"], { cwd: sub, baseURL: mock.url });
    expect(run.exitCode, describeResult(run)).toBe(0);
    const gates = parseEvents(run.stdout).filter((e) => e.type === "gate.result");
    expect(gates.length).toBeGreaterThan(0);
    expect(existsSync(join(project.root, ".yolo", "yolo.db"))).toBe(true);
    expect(existsSync(join(sub, ".yolo"))).toBe(false);
    expect(existsSync(join(project.root, "src", "add.js"))).toBe(true);
    const prompt = mock.requests[0].messages.map((m: { content: unknown }) => textOf(m.content)).join("\n");
    expect(prompt).toContain("The user started yolo in the folder test/ of the project");

    // Every command finds the same project from there.
    const threads = await runYolo(["threads", "--json"], { cwd: sub });
    expect(JSON.parse(threads.stdout)).toHaveLength(1);
    const doctor = await runYolo(["doctor", "--json"], { cwd: sub, baseURL: mock.url });
    const checks = JSON.parse(doctor.stdout).checks as { id: string; detail: string }[];
    expect(checks.find((c) => c.id === "git")?.detail).toBe(`repository at ${project.root}`);
    expect(checks.find((c) => c.id === "database")?.detail).toContain(join(project.root, ".yolo", "yolo.db"));
  });

  it("a yolo.config.ts nearer than the top level makes its folder the project, and doctor says so", async () => {
    const project = makeProject();
    const pkg = join(project.root, "packages", "a");
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, "yolo.config.ts"), 'export default { gates: [{ name: "test", command: "node -e 0" }] };\n');
    cleanups.push(project.cleanup);
    const doctor = await runYolo(["doctor", "--json"], { cwd: pkg, baseURL: "http://127.0.0.1:9/v1" });
    const git = (JSON.parse(doctor.stdout).checks as { id: string; detail: string }[]).find((c) => c.id === "git");
    expect(git?.detail).toBe(`repository at ${project.root}; the project is ${pkg}, whose own yolo.config.ts is nearer than the repository's top level`);
  });
});

import { describe, expect, it } from "vitest";
import { describeResult, parseEvents, runYolo } from "../helpers/cli.js";
import { analystDone, call, director, GOOD_ADD, handoff, pmDone, teaSays } from "../helpers/director.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach("lastFirst");
const REQ = "Add an add(a, b) function to src/add.js";
// The fixture's own test script: these cases are about what a run says it changed, not the gate's detection.
const GATE = ["--test-cmd", "node --test test/"];

function completedOf(stdout: string): { status: string; filesChanged: string[] } {
  return parseEvents(stdout).findLast((e) => e.type === "run.completed") as unknown as { status: string; filesChanged: string[] };
}

// "Files changed" is what git says the thread changed, not what a model says it did.
describe("a run's files changed come from git, never from the model's account", () => {
  it("a file the model names but never changed is not listed; one it wrote, or changed by a command and named, is", async () => {
    const project = makeProject();
    const mock = await startMockOpenAI(
      director({
        analyst: [analystDone],
        pm: [pmDone(false)],
        // README.md is changed by a command (no file tool saw it) and named; package.json is untouched and named anyway.
        dev: [
          call("write_file", { path: "src/add.js", content: GOOD_ADD }),
          call("run_command", { command: "printf 'add(a, b)\\n' >> README.md" }),
          handoff({ summary: "wrote add", files_changed: ["src/add.js", "README.md", "package.json"] }),
        ],
        tea: [teaSays("PASS")],
      }),
    );
    cleanups.push(project.cleanup, () => mock.close());
    const json = await runYolo(["run", ...GATE, "--json", REQ], { cwd: project.root, baseURL: mock.url });
    expect(json.exitCode, describeResult(json)).toBe(0);
    const dev = parseEvents(json.stdout).find((e) => e.type === "node.completed" && e.node === "dev");
    // dev's own line (the live view, history, hooks) counts the two files git confirms, not the three it named.
    expect(dev?.type === "node.completed" ? dev.summary : undefined).toBe("2 files changed");
    expect(completedOf(json.stdout)).toMatchObject({ status: "passed", filesChanged: ["README.md", "src/add.js"] });
  });

  it("a leg that wrote a file and then failed lists it, and so does a resume that fails at once", async () => {
    const project = makeProject();
    // dev writes, then the provider refuses the key (401: not retried, exit 5) before any handoff.
    const mock = await startMockOpenAI(
      director({ analyst: [analystDone], pm: [pmDone(false)], dev: [call("write_file", { path: "src/add.js", content: GOOD_ADD }), { status: 401 }] }),
    );
    cleanups.push(project.cleanup, () => mock.close());
    const first = await runYolo(["run", ...GATE, "--json", REQ], { cwd: project.root, baseURL: mock.url });
    expect(first.exitCode, describeResult(first)).toBe(5);
    expect(completedOf(first.stdout)).toMatchObject({ status: "provider_error", filesChanged: ["src/add.js"] });

    const refused = await startMockOpenAI(() => ({ status: 401 }));
    cleanups.push(() => refused.close());
    const thread = JSON.parse(first.stdout.split("\n")[0]).thread as string;
    const resumed = await runYolo(["resume", thread], { cwd: project.root, baseURL: refused.url });
    expect(resumed.exitCode, describeResult(resumed)).toBe(5);
    // Plain lines into a pipe: the closing summary names the file the killed leg wrote.
    expect(resumed.stdout).toContain("files changed (1): src/add.js");
    expect(resumed.stdout).not.toContain("no files changed");
  });
});

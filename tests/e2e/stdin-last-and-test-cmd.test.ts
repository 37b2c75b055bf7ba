import { execa } from "execa";
import { describe, it } from "vitest";
import { BIN, cleanEnv, describeResult, parseEvents, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, BAD_ADD, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";

const REQ = "Add an add(a, b) function to src/add.js";
const passing = () => director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] });

/** The binary with `input` on its stdin (a pipe, as in `cat req.md | yolo run -`). */
async function withStdin(args: string[], cwd: string, input: string, baseURL?: string) {
  const r = await execa(process.execPath, [BIN, ...args], { cwd, env: cleanEnv({ baseURL }), extendEnv: false, input, reject: false, timeout: 120_000 });
  return { exitCode: r.exitCode, signal: r.signal, timedOut: r.timedOut, stdout: String(r.stdout), stderr: String(r.stderr) };
}

describe.concurrent("what a new user expects from other CLIs", { timeout: 240_000 }, () => {
  it("yolo run - reads the requirement from stdin (not the literal '-'); empty stdin is exit 2", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(onTestFinished, passing());
    const text = `${REQ}\n\nIt must also handle negatives.\n`;
    const r = await withStdin(["run", "--json", "-"], root, text, mock.url);
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(parseEvents(r.stdout)[0]).toMatchObject({ type: "run.started", requirement: text.trim() });
    expect(JSON.stringify(mock.requests[0].messages)).toContain("It must also handle negatives.");

    const empty = await withStdin(["run", "-"], root, "  \n", mock.url);
    expect(empty.exitCode, describeResult(empty)).toBe(2);
    expect(empty.stderr).toContain('"-" reads the text from stdin, and stdin was empty');
  });

  it("resume --last continues the thread that ran last; without a thread or --last: the usual usage error", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const first = threadIdFrom((await runYolo(["run", "--json", REQ], { cwd: root, baseURL: (await mockWith(onTestFinished, passing())).url })).stdout);
    const second = threadIdFrom((await runYolo(["run", "--json", REQ], { cwd: root, baseURL: (await mockWith(onTestFinished, passing())).url })).stdout);
    expect(second).not.toBe(first);

    const r = await runYolo(["resume", "--last", "--json"], { cwd: root });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(parseEvents(r.stdout).at(-1)).toMatchObject({ type: "run.completed", thread: second, status: "passed" });

    // The reading commands take --last too, and `threads` names the thread it means.
    const shown = await runYolo(["show", "--last", "--json"], { cwd: root });
    expect(shown.exitCode, describeResult(shown)).toBe(0);
    expect(JSON.parse(shown.stdout).thread.id).toBe(second);
    const report = await runYolo(["report", "--last"], { cwd: root });
    expect(report.exitCode, describeResult(report)).toBe(0);
    expect(report.stdout).toContain(second);
    const history = await runYolo(["history", "--last", "--json"], { cwd: root });
    expect(history.exitCode, describeResult(history)).toBe(0);
    expect(JSON.parse(history.stdout).length).toBeGreaterThan(0);
    expect((await runYolo(["threads"], { cwd: root })).stdout).toContain(`--last (resume, show, report, history) means ${second}`);
    const both = await runYolo(["show", first, "--last"], { cwd: root });
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain("give a thread id or --last, not both");
    const neither = await runYolo(["report"], { cwd: root });
    expect(neither.exitCode).toBe(2);
    expect(neither.stderr).toContain("missing required argument 'thread'");

    const none = await runYolo(["resume", "--last"], { cwd: project(onTestFinished) });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain("No threads yet in this project, so there is no last one");
    const noneShown = await runYolo(["show", "--last"], { cwd: project(onTestFinished) });
    expect(noneShown.exitCode).toBe(2);
    expect(noneShown.stderr).toContain("No threads yet in this project, so there is no last one");
  });

  it("--test-cmd is the run's one gate instead of the detected npm test, and the printed resume command repeats it", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, { "check.mjs": "console.log('custom check ran'); process.exit(3);\n" });
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(BAD_ADD), tea: [teaSays("FAIL")] }));
    const r = await runYolo(["run", "--json", "--max-fix-attempts", "0", "--test-cmd", "node check.mjs", REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(1);
    const events = parseEvents(r.stdout);
    // The baseline (taken before any agent) and tea's check both run the one gate.
    const gates = events.filter((e) => e.type === "gate.started" && !e.baseline);
    expect(gates.map((g) => g.type === "gate.started" && [g.name, g.command])).toEqual([["test", "node check.mjs"]]);
    expect(events.find((e) => e.type === "gate.result")).toMatchObject({ gate: { passed: false, exitCode: 3 } });

    const empty = await runYolo(["run", "--test-cmd", " ", REQ], { cwd: root, baseURL: mock.url });
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain("--test-cmd is empty");
  });

  it("an unknown key in yolo.config.ts names the key meant", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, { "yolo.config.ts": 'export default { model: { nmae: "gpt-4o" }, maxFixAttemps: 2 };\n' });
    const r = await runYolo(["run", REQ], { cwd: root, baseURL: "http://127.0.0.1:9/v1" });
    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stderr).toContain('model.nmae: unknown key; did you mean "name"?');
    expect(r.stderr).toContain('maxFixAttemps: unknown key; did you mean "maxFixAttempts"?');
  });
});

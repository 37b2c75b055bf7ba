import { execa } from "execa";
import { describe, expect, it, onTestFinished } from "vitest";
import { BIN, cleanEnv } from "../helpers/cli.js";
import { analystDone, call, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { mockWith } from "../helpers/per-test.js";
import { makeProject } from "../helpers/project.js";
import { requireTool } from "../helpers/requires.js";

const QUESTION = "Integers only, or floats too?";

/** Runs a command under `script`, which gives it a pseudo-terminal as stdin and stdout; our stdin stays open. */
function onATerminal(command: string, cwd: string, env: Record<string, string>) {
  return execa("script", ["-qec", command, "/dev/null"], {
    cwd,
    env: { ...env, SHELL: "/bin/sh", TERM: "xterm" },
    extendEnv: false,
    stdin: "pipe",
    reject: false,
    encoding: "utf8",
    timeout: 120_000,
    killSignal: "SIGKILL",
  });
}

const NEED = "a pseudo-terminal for yolo";
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

describe("--ci on a real terminal", { timeout: 90_000 }, () => {
  it("does not prompt even though stdin and stdout are a TTY: the question ends the run with exit 3", async (ctx) => {
    requireTool(ctx, "script", NEED);
    const project = makeProject();
    onTestFinished(project.cleanup);
    const mock = await mockWith(onTestFinished, director({ analyst: [call("handoff", { escalate_to_human: true, question: QUESTION })] }));
    const env = cleanEnv({ baseURL: mock.url });

    // The harness really provides a terminal (otherwise the test below would prove nothing).
    const probe = await onATerminal(`${quote(process.execPath)} -e 'process.exit(process.stdin.isTTY && process.stdout.isTTY ? 0 : 9)'`, project.root, env);
    expect(probe.exitCode).toBe(0);

    const child = onATerminal(`${quote(process.execPath)} ${quote(BIN)} run --ci ${quote("Add an add(a, b) function")}`, project.root, env);
    // stdin is left open and never written: a prompt would wait here until the timeout kills it.
    const r = await child;
    expect(r.timedOut, String(r.stdout)).toBe(false);
    expect(r.exitCode, String(r.stdout)).toBe(3);
    expect(String(r.stdout)).toContain(QUESTION);
    expect(String(r.stdout)).toMatch(/yolo resume [a-z0-9]{8} --answer "<your answer>"/);
    expect(String(r.stdout)).not.toContain("Your answer");
    // Plain lines, not the live view: no cursor movement.
    expect(String(r.stdout)).not.toMatch(/\x1b\[\d*[ABCDK]/);
  });

  it("--tui draws the live view even with CI set (Ink would otherwise draw only the final frame)", async (ctx) => {
    requireTool(ctx, "script", NEED);
    const project = makeProject();
    onTestFinished(project.cleanup);
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    const env = { ...cleanEnv({ baseURL: mock.url }), CI: "true" };
    const r = await onATerminal(`${quote(process.execPath)} ${quote(BIN)} run --tui ${quote("Add an add(a, b) function")}`, project.root, env);
    expect(r.exitCode, String(r.stdout)).toBe(0);
    // Frames redrawn as the run goes (each in a synchronized-output block), not one final frame.
    const frames = String(r.stdout).split("\x1b[?2026h").length - 1;
    expect(frames, String(r.stdout)).toBeGreaterThan(3);
  });
});

import { execa } from "execa";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, cleanEnv, deferred, rolesOf, waitFor } from "../helpers/cli.js";
import { analystDone, call, director, GOOD_ADD, handoff, pmDone, teaSays } from "../helpers/director.js";
import { roleOf, startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";
import { requireTool } from "../helpers/requires.js";

const cleanups = cleanupsAfterEach("lastFirst");

const REQ = "Add an add(a, b) function to src/add.js";
const QUESTION = "Integers only, or floats too?";
// Generous: the machine is shared and slow at times; nothing here asserts how long anything takes.
const SCREEN_TIMEOUT_MS = 40_000;

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * A detached tmux session, 100×30, on a private server: a real terminal for the built binary, driven with
 * send-keys and read with capture-pane. The shell runs without CI so the binary picks the live view.
 */
async function tmuxSession(cwd: string, env: Record<string, string>) {
  const socket = `yolo-tui-${process.pid}-${randomBytes(4).toString("hex")}`;
  const tmux = (...args: string[]) =>
    execa("tmux", ["-L", socket, "-u", ...args], {
      env: { ...env, LANG: "C.UTF-8", TERM: "xterm-256color" },
      extendEnv: false,
      reject: false,
      encoding: "utf8",
    });
  const started = await tmux(
    "-f",
    "/dev/null",
    "new-session",
    "-d",
    "-s",
    "yolo",
    "-x",
    "100",
    "-y",
    "30",
    "-c",
    cwd,
    "env -u CI -u CONTINUOUS_INTEGRATION bash --norc --noprofile",
  );
  if (started.exitCode !== 0) throw new Error(`tmux did not start (is it installed? apt-get install tmux): ${started.stderr}`);
  await tmux("set-option", "-t", "yolo", "history-limit", "5000");
  let screen = "";
  return {
    /** Types text (literally), then optionally presses keys such as Enter or C-c. */
    async type(text: string, ...keys: string[]) {
      if (text) await tmux("send-keys", "-t", "yolo", "-l", text);
      if (keys.length) await tmux("send-keys", "-t", "yolo", ...keys);
    },
    /** The visible screen. */
    async capture() {
      screen = (await tmux("capture-pane", "-p", "-t", "yolo")).stdout;
      return screen;
    },
    /** Polls the screen until `test` passes; the last screen is in the error otherwise. */
    async waitFor(test: (s: string) => boolean, what: string) {
      const deadline = Date.now() + SCREEN_TIMEOUT_MS;
      while (!test(await this.capture())) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen:\n${screen}`);
        await new Promise((r) => setTimeout(r, 150));
      }
      return screen;
    },
    kill: () => tmux("kill-server"),
  };
}

// The exit status the shell printed after a command (`…; echo <marker>=$?`).
const exitShown = (screen: string, marker: string) => new RegExp(`^${marker}=(\\d+)\\s*$`, "m").exec(screen)?.[1];

describe("the live view in a real terminal (tmux)", { timeout: 180_000 }, () => {
  it("answers an escalation inline, stops after the current step on Ctrl+C, and resumes to a pass", async (ctx) => {
    requireTool(ctx, "tmux", "the live view in a real terminal");
    const project = makeProject();
    const held = deferred();
    const mock = await startMockOpenAI(
      director({
        analyst: [handoff({ escalate_to_human: true, question: QUESTION }, "Reading the requirement.\n"), analystDone],
        pm: [pmDone(false)],
        // dev's first reply waits until the test has pressed Ctrl+C, so the stop lands while dev works.
        dev: [
          { ...call("write_file", { path: "src/add.js", content: GOOD_ADD }, "Writing src/add.js now.\n"), hold: held.promise },
          handoff({ summary: "wrote add", files_changed: ["src/add.js"] }),
        ],
        tea: [teaSays("PASS")],
      }),
    );
    cleanups.push(project.cleanup, () => mock.close(), held.release);
    const term = await tmuxSession(project.root, cleanEnv({ baseURL: mock.url }));
    cleanups.push(term.kill);
    const yolo = `${quote(process.execPath)} ${quote(BIN)}`;

    await term.type(`${yolo} run ${quote(REQ)}; echo RUN_EXIT=$?`, "Enter");
    const asking = await term.waitFor((s) => s.includes("Enter answers and the run goes on"), "the inline question");
    expect(asking).toContain("? analyst asks:");
    expect(asking).toContain(QUESTION);
    expect(asking).not.toContain("Answer with");
    expect(asking).not.toContain("--answer");
    expect(asking).toMatch(/yolo · \w+ · gpt-4o-mini · .* · fix 0\/3/);

    await term.type("Floats too");
    await term.waitFor((s) => s.includes("› Floats too"), "the typed answer");
    await term.type("", "Enter");
    await waitFor(() => rolesOf(mock).includes("dev"), "dev's request to reach the mock", SCREEN_TIMEOUT_MS);
    const working = await term.waitFor((s) => /dev\s+running/.test(s), "dev running in the same view");
    expect(working).toMatch(/✓ analyst\s+2 acceptance criteria/);
    expect(working).toMatch(/– architect\s+skipped/);
    expect(working).not.toContain("asks:");
    const analystAgain = mock.requests.filter((r) => roleOf(r) === "analyst")[1];
    expect(JSON.stringify(analystAgain.messages)).toContain("Floats too");

    await term.type("", "C-c");
    await term.waitFor((s) => s.includes("stopping after dev finishes"), "the stop notice");
    held.release();
    const stopped = await term.waitFor((s) => exitShown(s, "RUN_EXIT") !== undefined, "the first run to exit");
    expect(exitShown(stopped, "RUN_EXIT")).toBe("130");
    expect(stopped).toContain("interrupted (exit 130)");
    expect(stopped).toMatch(/✓ dev\s+1 file changed/);
    expect(stopped).toMatch(/· tea\s+waiting/);
    expect(stopped).toContain("files changed (1): src/add.js");
    const thread = /resume: yolo resume (\w+)/.exec(stopped)?.[1];
    expect(thread, stopped).toBeDefined();
    expect(readFileSync(join(project.root, "src/add.js"), "utf8")).toBe(GOOD_ADD);
    expect(rolesOf(mock)).not.toContain("tea");

    await term.type(`clear; ${yolo} resume ${thread}; echo RESUME_EXIT=$?`, "Enter");
    const done = await term.waitFor((s) => exitShown(s, "RESUME_EXIT") !== undefined, "the resumed run to exit");
    expect(exitShown(done, "RESUME_EXIT")).toBe("0");
    expect(done).toContain(`yolo (resumed) · ${thread}`);
    expect(done).toMatch(/✓ dev\s+ran before this resume/);
    expect(done).toMatch(/✓ tea\s+verdict PASS/);
    expect(done).toContain("✓ gate test: PASS exit 0 (2 passed, 0 failed)");
    expect(done).toContain("passed (exit 0)");
    expect(rolesOf(mock)).toEqual(["analyst", "analyst", "pm", "dev", "dev", "tea"]);
  });
});

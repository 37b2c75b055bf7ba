import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acpEditor, alive, descendants, texts } from "../helpers/acp-editor.js";
import { describeResult, runYolo, waitFor } from "../helpers/cli.js";
import { analystDone, call, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach("lastFirst");
const SLEEP = "sleep 171";
/** yolo acp's own exit: 128 + the signal's number after a signal (it handled it), 0 when its input ended. */
const EXIT = { SIGTERM: 143, SIGHUP: 129, "end of input": 0 } as const;

/**
 * The editor closing `yolo acp` (a signal, or its stdin ending) while dev's command runs stops the run as Ctrl+C on
 * `yolo run` does: every process under `yolo acp` ends with it, and `yolo resume` finishes the thread.
 */
describe("yolo acp, the editor going away mid-run", { timeout: 420_000 }, () => {
  it.each(["SIGTERM", "SIGHUP", "end of input"] as const)(
    "%s: the run stops, no process outlives yolo acp, and the thread resumes from the CLI",
    async (how) => {
      const project = makeProject();
      const mock = await startMockOpenAI(
        director({
          analyst: [analystDone],
          pm: [pmDone(false)],
          dev: [call("run_command", { command: SLEEP, timeout_s: 200 }), ...devWrites(GOOD_ADD)],
          tea: [teaSays("PASS")],
        }),
      );
      cleanups.push(project.cleanup, () => mock.close());
      const ed = acpEditor(project.root, mock.url, cleanups);
      const seen = new Map<number, string>();
      await ed
        .use(async (ctx) => {
          await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
          const { sessionId } = await ctx.request("session/new", { cwd: project.root, mcpServers: [] });
          const turn = ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Add an add(a, b) function to src/add.js" }] });
          turn.catch(() => {});
          await waitFor(
            () => {
              for (const [pid, cmd] of descendants(ed.child.pid ?? 0)) seen.set(pid, cmd);
              return [...seen.values()].some((cmd) => cmd.includes(SLEEP));
            },
            "dev's command running under yolo acp",
            120_000,
          );
          if (how === "end of input") ed.child.stdin.end();
          else ed.child.kill(how);
        })
        .catch((error: Error) => {
          // The editor's side of the connection ends with yolo acp: that is the point, not a failure.
          if (!/connection closed/i.test(error.message)) throw error;
        });
      const exit = await Promise.race([ed.exited, new Promise((r) => setTimeout(() => r("still running"), 90_000))]);
      expect(exit, ed.stderr()).toEqual({ code: EXIT[how], signal: null });
      const left = [...seen].filter(([pid]) => alive(pid));
      expect(left, "processes that outlived yolo acp").toEqual([]);
      expect(existsSync(join(project.root, "src/add.js"))).toBe(false);

      const thread = /yolo thread (\S+)/.exec(texts(ed.updates))?.[1] ?? "";
      expect(thread).not.toBe("");
      const resumed = await runYolo(["resume", thread, "--ci"], { cwd: project.root, baseURL: mock.url, timeoutMs: 180_000 });
      expect(resumed.exitCode, describeResult(resumed)).toBe(0);
      expect(readFileSync(join(project.root, "src/add.js"), "utf8")).toBe(GOOD_ADD);
    },
  );
});

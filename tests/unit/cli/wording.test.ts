import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { errorText, factText, inCliWords } from "../../../src/cli/wording/error-text.js";
import { limitText } from "../../../src/cli/wording/limit-text.js";
import { resumeCommandText } from "../../../src/cli/wording/resume-command.js";
import { cliRunWords, killedReason } from "../../../src/cli/wording/run-words.js";
import { wordedCheck } from "../../../src/cli/wording/doctor-fix.js";
import { noticeText } from "../../../src/cli/wording/notice-text.js";
import { sayNotice } from "../../../src/engine/notices.js";
import { assertModelConfigured, resolveConfig } from "../../../src/config/resolve.js";

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a throw");
}
import { ConfigError, limitError, ThreadError, unknownThreadError, YoloError } from "../../../src/errors.js";

describe("the CLI words the engine's facts", () => {
  it("resume commands: plain, for a question, for a review, repeating the options that find the thread", () => {
    expect(resumeCommandText({ thread: "k3f9x2ab", awaits: null })).toBe("yolo resume k3f9x2ab");
    expect(resumeCommandText({ thread: "k3f9x2ab", awaits: "question" }, " --db ci.db")).toBe('yolo resume k3f9x2ab --db ci.db --answer "<your answer>"');
    expect(resumeCommandText({ thread: "k3f9x2ab", awaits: "approval" })).toBe('yolo resume k3f9x2ab --approve | --edit <file> | --reject "<why>"');
    expect(cliRunWords(" --replay s.jsonl").resumeCommand({ thread: "t1", awaits: null })).toBe("yolo resume t1 --replay s.jsonl");
  });

  it("limits: what was reached, then the flag and config key that raise it, for the thread", () => {
    const said = "The run reached its step limit: 3 of 3 steps, resumes included, before dev.";
    expect(limitText({ kind: "steps", setting: "maxSteps", said }, "t1")).toBe(
      `${said} The thread is saved: resume it with a higher limit (yolo resume t1 --max-steps N) or raise limits.maxSteps in yolo.config.ts.`,
    );
    expect(limitText({ kind: "turns", setting: "maxTurns", said: "dev used its 2 turns without handing off." })).toBe(
      "dev used its 2 turns without handing off. The thread is saved: resume it with a higher limit (yolo resume <thread> --max-turns N) or raise maxTurns in the agent file.",
    );
    expect(limitText({ kind: "budget", setting: "maxCost", said: "x." }, "t1")).toContain("(yolo resume t1 --max-cost N)");
    expect(limitText({ kind: "time", setting: "maxTime", said: "x." }, "t1")).toContain("(yolo resume t1 --max-time 1h)");
    expect(limitText({ kind: "steps", setting: "graph-steps", said: "the run reached LangGraph's step limit (30 steps in one leg)." })).toBe(
      "the run reached LangGraph's step limit (30 steps in one leg). Raise limits.maxSteps (--max-steps) and resume.",
    );
  });

  it("an engine error keeps a neutral message (no command line); the CLI's text names the command", () => {
    const error = limitError({ kind: "budget", setting: "maxTokens", said: "The run reached its token budget: 20 of 20 tokens used." }, "The thread is saved.");
    expect(error.message).not.toMatch(/yolo |--max/);
    expect(errorText(error, { thread: "t1" })).toBe(
      "The run reached its token budget: 20 of 20 tokens used. The thread is saved and completed agents will not run again: resume it with a higher budget (yolo resume t1 --max-tokens N).",
    );
    expect(cliRunWords().errorReason(error, "t9")).toContain("yolo resume t9 --max-tokens N");
    const unknown = unknownThreadError("nosuch");
    expect(unknown.message).toBe("No thread nosuch in this project.");
    expect(errorText(unknown)).toBe("No thread nosuch in this project. List threads with `yolo threads`.");
    expect(errorText(new Error("plain"))).toBe("plain");
  });

  it("every thread refusal says the command that helps", () => {
    expect(factText({ kind: "thread-exists", thread: "t1" })).toBe("Thread t1 already exists; start a new run or use `yolo resume t1`.");
    expect(factText({ kind: "reply-not-awaited", thread: "t1" })).toBe(
      "Thread t1 is not waiting for an answer; resume it without --answer, --approve, --edit or --reject.",
    );
    expect(factText({ kind: "wrong-reply", awaits: "question", by: "analyst" })).toBe(
      'analyst asked a question, not for a review: answer it with --answer "…".',
    );
    expect(factText({ kind: "wrong-reply", awaits: "approval", by: "review_pm" })).toBe(
      'review_pm waits for a review, not an answer: use --approve, --edit <file> or --reject "why".',
    );
    expect(factText({ kind: "follow-up-to-workflow", thread: "t1" })).toBe(
      "Thread t1 runs a workflow: follow-up messages are for `yolo agent` and `yolo chat` threads. Start a new run instead.",
    );
    expect(factText({ kind: "follow-up-while-waiting", thread: "t1" })).toBe('Thread t1 waits for an answer first: yolo resume t1 --answer "…".');
    expect(factText({ kind: "follow-up-while-pending", thread: "t1" })).toBe(
      "Thread t1 has not finished its last message: resume it without a message first (yolo resume t1).",
    );
    expect(factText({ kind: "already-answered", thread: "t1", answer: "approve" }, { resumeArgs: " --db x.db" })).toBe(
      "Thread t1 was already answered (approve) by a command stopped before it finished; continue with that answer: yolo resume t1 --db x.db",
    );
    expect(factText({ kind: "no-such-checkpoint", thread: "t1", from: "99" })).toBe('Thread t1 has no checkpoint "99". List them with `yolo history t1`.');
    expect(factText({ kind: "fork-needs-one-node", thread: "t1", step: 0, node: "input" })).toBe(
      "Cannot fork from step 0 (input); pick a checkpoint made by one node (see `yolo history t1`).",
    );
    expect(factText({ kind: "invalid-thread-id", thread: "../x" })).toBe('"../x" is not a valid thread id; list threads with `yolo threads`.');
    expect(factText({ kind: "gate-required", missing: "no test script" })).toContain("requireGate (--require-gate) refuses a run without one");
    expect(factText({ kind: "database-unusable", said: "yolo's database x is unusable: it cannot be opened (EACCES). Make sure it is writable" })).toBe(
      "yolo's database x is unusable: it cannot be opened (EACCES). Make sure it is writable, or choose another file with --db / YOLO_DB.",
    );
    expect(factText({ kind: "storage", said: "yolo's database x cannot be written: full. … then run again" }, { thread: "t1" })).toBe(
      "yolo's database x cannot be written: full. … then run again (`yolo resume t1` continues a stopped thread from its last completed step).",
    );
  });

  it("a killed thread's row: resume it, or start it again when nothing was saved", () => {
    expect(killedReason({ thread: "t1", saved: true })).toBe(
      "its process stopped without finishing (killed?); the last completed step is saved: yolo resume t1",
    );
    expect(killedReason({ thread: "t1", saved: false })).toBe(
      "its process stopped before the first step was saved; nothing to resume: start it again with yolo run",
    );
  });

  it("a hostile requirement in the start-again command is one shell word: pasting it runs nothing else", () => {
    const requirement = "x'; touch /tmp/pwned-$(id -u); echo '`whoami`";
    const text = factText({ kind: "no-checkpoint", thread: "t1", requirement }, { resumeArgs: " --db 'my db.db'" });
    const command = /Start it again with: (yolo run .*)$/.exec(text)?.[1] ?? "";
    expect(command.startsWith("yolo run --db 'my db.db' ")).toBe(true);
    // The shell reads back exactly the words the command was made of.
    const words = execFileSync("sh", ["-c", `printf '%s\\n' ${command.slice("yolo ".length)}`], { encoding: "utf8" })
      .split("\n")
      .slice(0, -1);
    expect(words).toEqual(["run", "--db", "my db.db", requirement]);
  });

  it("inCliWords keeps the error's class (its exit code) and drops nothing for errors without facts", () => {
    const worded = inCliWords(new ThreadError("Thread t1 already exists.", { kind: "thread-exists", thread: "t1" }), {});
    expect(worded).toBeInstanceOf(ThreadError);
    expect((worded as Error).message).toBe("Thread t1 already exists; start a new run or use `yolo resume t1`.");
    const gate = inCliWords(new ConfigError("No gate.", [], { fact: { kind: "gate-required", missing: "none" } }), {});
    expect(gate).toBeInstanceOf(ConfigError);
    const plain = new YoloError("x", "as is");
    expect(inCliWords(plain, {})).toBe(plain);
  });

  it("a missing model endpoint and the doctor's fixes: neutral in the engine, with yolo's flags in the CLI's words", () => {
    const cfg = resolveConfig({ root: "/p", fileConfig: {}, file: null, env: {} });
    const error = thrown(() => assertModelConfigured(cfg));
    expect(error.message).not.toMatch(/--|yolo (run|resume)/);
    expect(error.message).toContain("http://localhost:11434/v1");
    expect(errorText(error)).toContain("Set OPENAI_API_KEY to your API key, or point OPENAI_BASE_URL (or model.baseURL in yolo.config.ts, or --base-url)");
    expect(errorText(error)).toContain("vLLM http://localhost:8000/v1.");
    const check = { id: "database", title: "database", status: "fail" as const, detail: "x", fix: "neutral", fixFact: { kind: "database-unusable" as const } };
    expect(wordedCheck(check)).toEqual({ id: "database", title: "database", status: "fail", detail: "x", fix: expect.stringContaining("--db / YOLO_DB") });
    expect(wordedCheck({ id: "git", title: "git", status: "ok", detail: "fine" })).toEqual({ id: "git", title: "git", status: "ok", detail: "fine" });
    const noGate = { kind: "no-gate" as const, reason: "package.json has no test script" };
    expect(noticeText(noGate)).toContain("(requireGate: true / --require-gate refuses such runs)");
    expect(sayNotice(noGate)).not.toMatch(/--|yolo (run|resume|hooks)/);
    expect(sayNotice(noGate, noticeText)).toBe(noticeText(noGate));
    const textCalls = { kind: "text-tool-calls" as const, node: "dev", shape: "<tool_call> tags" };
    expect(noticeText(textCalls)).toMatch(/^dev: the model wrote its tool calls in its reply text \(<tool_call> tags\).*\(see yolo doctor\)\.$/);
    expect(sayNotice(textCalls)).not.toMatch(/yolo doctor/);
  });
});

import { ConfigError, LimitError, ThreadError, YoloError } from "../../errors.js";
import type { ErrorFact } from "../../events/facts.js";
import { shellQuote } from "./shell-quote.js";
import { limitText } from "./limit-text.js";
import { resumeCommandText } from "./resume-command.js";

/** What the CLI knows that the engine does not: the thread a run is about, and the options a command must repeat. */
export interface WordingContext {
  thread?: string;
  /** ` --db x.db --replay s.jsonl`: options a printed `yolo run` / `yolo resume` repeats, shell-quoted. */
  resumeArgs?: string;
}

/** An engine fact in the CLI's words: what happened and the command that helps. */
export function factText(fact: ErrorFact, ctx: WordingContext = {}): string {
  const args = ctx.resumeArgs ?? "";
  switch (fact.kind) {
    case "unknown-thread":
      return `No thread ${fact.thread} in this project. List threads with \`yolo threads\`.`;
    case "invalid-thread-id":
      return `"${fact.thread}" is not a valid thread id; list threads with \`yolo threads\`.`;
    case "thread-exists":
      return `Thread ${fact.thread} already exists; start a new run or use \`yolo resume ${fact.thread}\`.`;
    case "no-checkpoint":
      return `Thread ${fact.thread} has no checkpoint: the run was stopped before its first step, so there is nothing to resume. Start it again with: yolo run${args} ${shellQuote(fact.requirement)}`;
    case "reply-not-awaited":
      return `Thread ${fact.thread} is not waiting for an answer; resume it without --answer, --approve, --edit or --reject.`;
    case "already-answered":
      return `Thread ${fact.thread} was already answered (${fact.answer}) by a command stopped before it finished; continue with that answer: ${resumeCommandText({ thread: fact.thread, awaits: null }, args)}`;
    case "wrong-reply":
      return fact.awaits === "question"
        ? `${fact.by} asked a question, not for a review: answer it with --answer "…".`
        : `${fact.by} waits for a review, not an answer: use --approve, --edit <file> or --reject "why".`;
    case "follow-up-to-workflow":
      return `Thread ${fact.thread} runs a workflow: follow-up messages are for \`yolo agent\` and \`yolo chat\` threads. Start a new run instead.`;
    case "follow-up-while-waiting":
      return `Thread ${fact.thread} waits for an answer first: ${resumeCommandText({ thread: fact.thread, awaits: null })} --answer "…".`;
    case "follow-up-while-pending":
      return `Thread ${fact.thread} has not finished its last message: resume it without a message first (${resumeCommandText({ thread: fact.thread, awaits: null })}).`;
    case "no-such-checkpoint":
      return `Thread ${fact.thread} has no checkpoint "${fact.from}". List them with \`yolo history ${fact.thread}\`.`;
    case "fork-needs-one-node":
      return `Cannot fork from step ${fact.step} (${fact.node}); pick a checkpoint made by one node (see \`yolo history ${fact.thread}\`).`;
    case "limit":
      return limitText(fact.limit, ctx.thread);
    case "gate-required":
      return `No gate: ${fact.missing}. requireGate (--require-gate) refuses a run without one; nothing ran. Add a test script or \`gates\` in yolo.config.ts.`;
    case "storage":
      return `${fact.said} (\`yolo resume ${ctx.thread ?? "<thread>"}\` continues a stopped thread from its last completed step).`;
    case "database-unusable":
      return `${fact.said}, or choose another file with --db / YOLO_DB.`;
    case "branch-needs-git":
      return `--branch needs a git repository, and ${fact.root} is not inside one. Run \`git init\` and commit, or run without --branch.`;
    case "dirty-tree-for-branch":
      return "The work tree has uncommitted changes, and --branch commits yolo's work: commit or stash them first, or pass --allow-dirty to carry them onto the branch:";
    case "thread-without-branch":
      return `Thread ${fact.thread} has no branch ${fact.branch}: it was started without --branch. Resume it without --branch.`;
    case "replay-unreadable":
      return `${fact.said} Record one with: yolo run --record ${fact.file} "…"`;
    case "other-repository":
      return (
        `Thread ${fact.thread} belongs to repository ${fact.repo} (last run in ${fact.root}${fact.host ? ` on ${fact.host}` : ""}), ` +
        `but this working copy is ${fact.here}. Resume it from a checkout of ${fact.repo}; \`yolo threads\` lists this repository's threads.`
      );
    case "no-model-endpoint":
      return (
        `${fact.apiKeyEnv} is not set and no OPENAI_BASE_URL is configured, so yolo has no model to talk to. ` +
        `Set ${fact.apiKeyEnv} to your API key, or point OPENAI_BASE_URL (or model.baseURL in yolo.config.ts, or --base-url) at a local OpenAI-compatible server: ${fact.servers}.`
      );
    case "replay-empty":
      return `${fact.file} holds no recorded exchanges; record a session with: yolo run --record ${fact.file} "…"`;
  }
}

/** The message the CLI prints for an error: its fact in the CLI's words (a config error's problems below), or its own message. */
export function errorText(error: unknown, ctx: WordingContext = {}): string {
  if (!(error instanceof YoloError) || !error.fact) return (error as Error)?.message ?? String(error);
  const head = factText(error.fact, ctx);
  return error instanceof ConfigError && error.problems.length ? `${head}\n${error.problems.map((p) => `  - ${p}`).join("\n")}` : head;
}

/**
 * The same error with its message in the CLI's words for this context (a run's thread and options), so that
 * wherever it is printed later it says what this command would. Errors without a fact are returned as they are.
 */
export function inCliWords(error: unknown, ctx: WordingContext): unknown {
  if (!(error instanceof YoloError) || !error.fact) return error;
  const text = factText(error.fact, ctx);
  if (error instanceof ThreadError) return Object.assign(new ThreadError(text), { cause: error });
  if (error instanceof ConfigError) return new ConfigError(text, error.problems, { cause: error });
  if (error instanceof LimitError) return new LimitError(error.kind, text, { cause: error });
  return new YoloError(error.code, text, { cause: error });
}

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ReviewResponse, WaitingRequest } from "../engine/api.js";
import { ConfigError } from "../errors.js";
import type { AnswerEntry } from "./answers-file.js";

export type { AnswerEntry };

/** A reply to what a thread waits on: an answer to a question, or a review of an artifact. */
export type HumanReply = { answer: string } | { review: ReviewResponse };

/** `--approve`, `--reject <why>`, `--edit <file>` as one review, or null; more than one is a usage error. */
export function reviewFromFlags(opts: { approve?: boolean; reject?: string; edit?: string; answer?: string }): ReviewResponse | null {
  const given = [
    opts.approve ? "--approve" : null,
    opts.reject !== undefined ? "--reject" : null,
    opts.edit !== undefined ? "--edit" : null,
    opts.answer !== undefined ? "--answer" : null,
  ].filter(Boolean);
  if (given.length > 1) throw new ConfigError(`Use one of ${given.join(", ")}, not several.`);
  // An unset shell variable (`--answer "$ANSWER"`) must not answer with nothing: refuse before anything runs.
  if (opts.answer !== undefined && !opts.answer.trim()) {
    throw new ConfigError(
      '--answer is empty; the thread is still waiting. Give the answer in words (an unset variable in `--answer "$VAR"` gives an empty one).',
    );
  }
  if (opts.approve) return { action: "approve" };
  if (opts.reject !== undefined) {
    if (!opts.reject.trim()) throw new ConfigError("--reject needs a reason: the agent gets it.");
    return { action: "reject", reason: opts.reject };
  }
  if (opts.edit !== undefined) {
    let content: string;
    try {
      content = readFileSync(opts.edit, "utf8");
    } catch (error) {
      throw new ConfigError(`Cannot read the edited artifact ${opts.edit}: ${(error as Error).message}`);
    }
    if (!content.trim())
      throw new ConfigError(`The edited artifact ${opts.edit} is empty; the thread is still waiting. Save the edited text in it, or use --approve / --reject.`);
    return { action: "edit", content };
  }
  return null;
}

/**
 * The prepared reply for what a thread waits on: the first unused entry for its node whose question (when
 * given) appears in the question asked. A review (approve, reject, edit) may name the approval step or the agent it
 * reviews (`approve_pm` or `pm`). Used entries are removed, so a repeated question needs its own entry.
 */
export function takeAnswer(entries: AnswerEntry[], request: WaitingRequest): HumanReply | null {
  const node = request.kind === "question" ? request.askedBy : request.node;
  const asked = request.kind === "question" ? request.question : request.prompt;
  const reviewed = request.kind === "approval" ? request.reviews : null;
  const names = (e: AnswerEntry) => e.node === node || (reviewed !== null && e.node === reviewed && e.answer === undefined);
  const i = entries.findIndex((e) => names(e) && (!e.question || asked.toLowerCase().includes(e.question.toLowerCase())));
  if (i < 0) return null;
  const [e] = entries.splice(i, 1);
  if (request.kind === "question") return e.answer !== undefined ? { answer: e.answer } : null;
  if (e.approve) return { review: { action: "approve" } };
  if (e.reject !== undefined) return { review: { action: "reject", reason: e.reject } };
  if (e.edit !== undefined) return { review: { action: "edit", content: e.edit } };
  return null;
}

/** Asks on the terminal. A question takes a line; a review offers approve, edit (in $EDITOR) or reject. Null: answer later. */
export async function askOnTerminal(request: WaitingRequest, env: NodeJS.ProcessEnv): Promise<HumanReply | null> {
  // A live view that just closed leaves stdin unref'd and paused: without this the process would exit mid-question.
  process.stdin.ref();
  // Loaded when a question is asked on the terminal (a run that asks none never needs it), before stdin flows.
  const { createInterface } = await import("node:readline/promises");
  process.stdin.resume();
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    if (request.kind === "question") {
      const answer = (await rl.question(`\n${request.question}\nYour answer (empty to stop and answer later): `)).trim();
      return answer ? { answer } : null;
    }
    process.stdout.write(`\n${request.prompt}\n\n${request.artifact.trimEnd()}\n\n`);
    for (;;) {
      const choice = (await rl.question("[a]pprove, [e]dit, [r]eject, or empty to stop and answer later: ")).trim().toLowerCase();
      if (!choice) return null;
      if (choice.startsWith("a")) return { review: { action: "approve" } };
      if (choice.startsWith("r")) {
        const reason = (await rl.question("Why (the agent gets this): ")).trim();
        if (reason) return { review: { action: "reject", reason } };
      }
      if (choice.startsWith("e")) {
        rl.pause();
        const edited = editInEditor(request.artifact, env);
        rl.resume();
        if (edited !== null) return { review: { action: "edit", content: edited } };
        process.stdout.write("The editor did not exit cleanly; nothing was changed.\n");
      }
    }
  } finally {
    rl.close();
    process.stdin.pause();
  }
}

/** Opens the artifact in $VISUAL / $EDITOR (vi otherwise) and returns the saved text, or null if the editor failed. */
function editInEditor(artifact: string, env: NodeJS.ProcessEnv): string | null {
  const dir = mkdtempSync(join(tmpdir(), "yolo-edit-"));
  const file = join(dir, "artifact.md");
  writeFileSync(file, artifact);
  try {
    const editor = env.VISUAL || env.EDITOR || "vi";
    const result = spawnSync(`${editor} "${file}"`, { shell: true, stdio: "inherit" });
    return result.status === 0 ? readFileSync(file, "utf8") : null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

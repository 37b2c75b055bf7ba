import type { LaunchFlags, LaunchFront, LaunchRequest } from "../engine/api.js";
import type { AnswerEntry } from "./answers-file.js";
import { takeEarlyProbes } from "./early-probes.js";
import { noModelError, resumeArgs, setupText } from "./run-setup.js";
import { noDatabaseYet } from "./thread-home.js";
import { cliFlagName } from "./wording/flag-names.js";
import { noticeText } from "./wording/notice-text.js";
import { cliRunWords } from "./wording/run-words.js";

/** The CLI's side of a launch: its flag names, its `--answers` file, the shim's early reads, and its words. */
export interface CliFront {
  front: LaunchFront;
  /** The `--answers` file's entries once the engine had it read (null: none given). */
  answers(): AnswerEntry[] | null;
  /** Options a printed resume command repeats (` --db x --replay y`). */
  resumeArgs: string;
}

/** What the engine asks of the CLI while it prepares `request` (src/engine/run/front.ts). */
export function cliFront(request: LaunchRequest, preloadView: () => void): CliFront {
  const { flags, cwd } = request;
  const args = resumeArgs(flags);
  let answers: AnswerEntry[] | null = null;
  const front: LaunchFront = {
    flagName: cliFlagName,
    startedReads: takeEarlyProbes,
    preloadView,
    ...(flags.answers !== undefined ? { replies: answersFile(flags.answers, cwd, (loaded) => (answers = loaded)) } : {}),
    words: { run: cliRunWords(args), notice: noticeText, setup: setupText, noDatabase: noDatabaseYet, noModel: noModelError },
  };
  return { front, answers: () => answers, resumeArgs: args };
}

// `--answers <file>`: read when the engine reaches it; for a resume, refused when the thread's agents could have written it.
function answersFile(file: string, cwd: string, keep: (answers: AnswerEntry[]) => void): NonNullable<LaunchFront["replies"]> {
  return {
    async load() {
      keep((await import("./answers-file.js")).loadAnswers(file));
    },
    async check(root, startCommit) {
      const { checkAnswersFile } = await import("./answers-trust.js");
      await checkAnswersFile(file, cwd, root, startCommit);
    },
  };
}

export type { LaunchFlags };

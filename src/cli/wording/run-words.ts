import type { KilledWords, RunWords } from "../../engine/api.js";
import { errorText } from "./error-text.js";
import { resumeCommandText } from "./resume-command.js";

/** The CLI's words for a run: resume commands repeating `resumeArgs`, stop reasons naming the thread. */
export function cliRunWords(resumeArgs = ""): RunWords {
  return {
    resumeCommand: (fact) => resumeCommandText(fact, resumeArgs),
    errorReason: (error, thread) => errorText(error, { thread, resumeArgs }),
  };
}

/** Why a thread whose process was killed is interrupted, and the command that continues or restarts it. */
export const killedReason: KilledWords = ({ thread, saved }) =>
  saved
    ? `its process stopped without finishing (killed?); the last completed step is saved: ${resumeCommandText({ thread, awaits: null })}`
    : "its process stopped before the first step was saved; nothing to resume: start it again with yolo run";

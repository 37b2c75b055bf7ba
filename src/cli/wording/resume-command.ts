import type { ResumeFact } from "../../events/facts.js";

/**
 * The command that continues a thread, as printed in events, the live view, hooks and job logs. `resumeArgs` are
 * the options it must repeat to find and continue the same thread the same way (` --db x.db`), shell-quoted.
 */
export function resumeCommandText(fact: ResumeFact, resumeArgs = ""): string {
  const base = `yolo resume ${fact.thread}${resumeArgs}`;
  if (fact.awaits === "approval") return `${base} --approve | --edit <file> | --reject "<why>"`;
  if (fact.awaits === "question") return `${base} --answer "<your answer>"`;
  return base;
}

import type { LimitFact, LimitSetting } from "../../events/facts.js";

// What to do about each limit, in the CLI's terms: the flag that raises it on a resume, or the config key.
const HOW: Record<LimitSetting, (thread: string) => string> = {
  maxSteps: (t) => `The thread is saved: resume it with a higher limit (yolo resume ${t} --max-steps N) or raise limits.maxSteps in yolo.config.ts.`,
  maxTime: (t) => `The thread is saved: resume it with more time (yolo resume ${t} --max-time 1h) or raise limits.maxTime in yolo.config.ts.`,
  maxTokens: (t) => `The thread is saved and completed agents will not run again: resume it with a higher budget (yolo resume ${t} --max-tokens N).`,
  maxCost: (t) => `The thread is saved and completed agents will not run again: resume it with a higher budget (yolo resume ${t} --max-cost N).`,
  maxTurns: (t) => `The thread is saved: resume it with a higher limit (yolo resume ${t} --max-turns N) or raise maxTurns in the agent file.`,
  "graph-steps": () => "Raise limits.maxSteps (--max-steps) and resume.",
};

/** A reached limit in words, with the command that raises it for `thread` (`<thread>` when it is not known). */
export function limitText(limit: LimitFact, thread = "<thread>"): string {
  return `${limit.said} ${HOW[limit.setting](thread)}`;
}

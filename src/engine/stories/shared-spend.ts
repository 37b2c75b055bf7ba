import { limitError } from "../../errors.js";
import type { Usage } from "../../events/schema.js";
import { addUsage, ZERO_USAGE } from "../../events/usage.js";

/**
 * What the stories running at the same time have spent so far, by thread and story. Their usage reaches the state
 * only when the superstep ends, so each story's budget check adds the others' from here: the budget holds for the
 * thread as a whole. Cleared when the merge step runs (by then it is all in state).
 */
const spending = new Map<string, Map<string, Usage>>();

/** Adds one model call's usage to a story's tally. */
export function recordSpend(threadId: string, storyId: string, usage: Usage): void {
  const byStory = spending.get(threadId) ?? new Map<string, Usage>();
  byStory.set(storyId, addUsage(byStory.get(storyId) ?? ZERO_USAGE, usage));
  spending.set(threadId, byStory);
}

/** What the thread's other running stories spent, not yet in state. */
export function spentByOthers(threadId: string, storyId: string): Usage {
  let total = ZERO_USAGE;
  for (const [id, usage] of spending.get(threadId) ?? []) if (id !== storyId) total = addUsage(total, usage);
  return total;
}

/** Forgets a thread's tallies (their usage is in state now). */
export function clearSpend(threadId: string): void {
  spending.delete(threadId);
}

const turns = new Map<string, number>();

/**
 * Counts one model turn of a thread's story runs and stops the run when together they pass the fanning-out node's
 * turn limit (`node`: the default pipeline's dev, whose stories' runs are "the stories' devs"): the bound one run had
 * for all the stories holds for the stories in parallel too. Counted per process, like an agent loop's own turns (a
 * resume starts again).
 */
export function takeTurn(threadId: string, limit: number, node: string): void {
  const used = (turns.get(threadId) ?? 0) + 1;
  turns.set(threadId, used);
  if (used > limit) {
    throw limitError(
      { kind: "turns", setting: "maxTurns", said: `The stories' ${node}s used ${node}'s ${limit} turns between them without all handing off.` },
      "The thread is saved: resume it with a higher maxTurns.",
    );
  }
}

/** One dev iteration of a thread, as a commit names it. */
export interface Iteration {
  threadId: string;
  /** The graph node that made the change (dev in the default pipeline). */
  node: string;
  /** 1 for the first iteration, 2 for the first fix attempt, … */
  attempt: number;
  /** Titles of the stories being implemented. */
  stories: string[];
  /** The agent's own summary of the change. */
  summary: string;
}

const SUBJECT_MAX = 72;

/** `yolo(<thread>): <story> (attempt N)`, the agent's summary, and trailers a re-run recognises. */
export function commitMessage(it: Iteration): string {
  const what = it.stories.length === 0 ? it.node : it.stories.length === 1 ? it.stories[0] : `${it.stories[0]} (+${it.stories.length - 1} more stories)`;
  const suffix = ` (attempt ${it.attempt})`;
  const prefix = `yolo(${it.threadId}): `;
  const room = SUBJECT_MAX - prefix.length - suffix.length;
  const flat = what.replace(/\s+/g, " ").trim();
  const subject = `${prefix}${flat.length > room ? `${flat.slice(0, Math.max(1, room - 1))}…` : flat}${suffix}`;
  const body = it.summary.trim();
  const trailers = [`Yolo-Thread: ${it.threadId}`, `Yolo-Node: ${it.node}`, `Yolo-Attempt: ${it.attempt}`];
  return [subject, ...(body ? [body] : []), trailers.join("\n")].join("\n\n");
}

/** True when a commit message is this iteration's (same thread, node and attempt): a re-run amends it. */
export function isSameIteration(message: string, it: Iteration): boolean {
  const trailer = (key: string) => new RegExp(`^${key}: (.+)$`, "m").exec(message)?.[1]?.trim();
  return trailer("Yolo-Thread") === it.threadId && trailer("Yolo-Node") === it.node && trailer("Yolo-Attempt") === String(it.attempt);
}

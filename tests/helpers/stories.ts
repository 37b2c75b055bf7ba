import { handoff, type Turn } from "./director.js";
import { roleOf, type RecordedRequest, type Responder } from "./mock-openai.js";

/**
 * Which run a request comes from when stories run in parallel: `dev:<story>` for a story's dev (its brief names
 * "Your story: <id>"), `dev:merge` for a conflict resolution, else the agent's role. Parallel stories' requests arrive
 * in any order, so a script is keyed by what the request contains, not by its position.
 */
export function runOf(req: RecordedRequest): string {
  const role = roleOf(req) ?? "unknown";
  if (role !== "dev") return role;
  const text = req.messages.map((m) => (typeof m?.content === "string" ? m.content : JSON.stringify(m?.content ?? ""))).join("\n");
  if (text.includes("## Merge conflict")) return "dev:merge";
  const story = /## Your story: ([a-z0-9_-]+)/.exec(text);
  return story ? `dev:${story[1]}` : "dev";
}

/** A responder serving each run (see runOf) its own queue of turns; `log` lists the run of every request, in arrival order. */
export function storyDirector(script: Record<string, Turn[]>): Responder & { log: string[] } {
  const queues = Object.fromEntries(Object.entries(script).map(([k, turns]) => [k, [...turns]]));
  const log: string[] = [];
  const responder = async (req: RecordedRequest) => {
    const run = runOf(req);
    log.push(run);
    const turn = queues[run]?.shift();
    if (!turn) return { status: 400, content: `storyDirector: no scripted turn left for ${run} (request ${log.length})` };
    return typeof turn === "function" ? turn(req) : turn;
  };
  return Object.assign(responder, { log });
}

/** pm's handoff with stories that carry ids and depends_on. */
export function pmStories(stories: { id: string; title: string; depends_on?: string[] }[]) {
  return handoff({
    stories: stories.map((s) => ({ ...s, as_a: "developer", i_want: s.title, so_that: "it works", acceptance_criteria: [`${s.title} works`] })),
    needs_architecture: false,
  });
}

/** Resolves when `check` holds, polled; rejects with `what` after `ms` (a scripted turn then answers with an error). */
export async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

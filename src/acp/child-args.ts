/** Where an ACP session's thread stands, as far as choosing the next child run is concerned. */
export interface ThreadPosition {
  threadId: string | null;
  /** The thread's mode (run, agent, chat), from its run.started event or its index row. */
  mode: string | null;
  /** The status its last run ended with (run.completed), or its index row's. */
  status: string | null;
  /** What a waiting thread waits for. */
  waiting: "question" | "approval" | null;
}

/** Statuses a plain resume continues from the last checkpoint (the run stopped before it ended). */
const RESUMABLE = new Set(["interrupted", "limit", "provider_error", "error", "running"]);

/**
 * The yolo command line (after the binary) a prompt turns into: a new run; the answer to the question the thread
 * waits on; a reason to reject the output it waits to have approved; a follow-up of a finished agent or chat
 * thread; or, for a run that stopped early, a resume from its checkpoint. A finished run takes a new thread.
 * Words follow `--`, so a prompt that starts with "-" stays words.
 */
export function promptArgs(at: ThreadPosition, text: string): { args: string[]; usesText: boolean } {
  const thread = at.threadId;
  if (thread && at.status === "waiting" && at.waiting === "approval") return { args: ["resume", thread, "--reject", text, ...CHILD], usesText: true };
  if (thread && at.status === "waiting") return { args: ["resume", thread, "--answer", text, ...CHILD], usesText: true };
  if (thread && (at.mode === "agent" || at.mode === "chat") && at.status === "passed")
    return { args: ["resume", thread, ...CHILD, "--", text], usesText: true };
  if (thread && at.status !== null && RESUMABLE.has(at.status)) return { args: ["resume", thread, ...CHILD], usesText: false };
  return { args: ["run", ...CHILD, "--", text], usesText: true };
}

/** The reply to an approval the editor's user gave; a rejection carries the user's reason where the editor gave one. */
export function approvalArgs(threadId: string, approved: boolean, reason: string | null = null): string[] {
  return approved ? ["resume", threadId, "--approve", ...CHILD] : ["resume", threadId, "--reject", reason ?? "Rejected in the editor.", ...CHILD];
}

/** Where a thread loaded into a session stands, said again by a resume that only reports it. */
export function reportArgs(threadId: string): string[] {
  return ["resume", threadId, ...CHILD];
}

/**
 * Events on stdout, the model's words and thinking as they stream among them, and never a prompt: a question ends
 * the child (exit 3) and comes back as the next prompt.
 */
const CHILD = ["--json", "--json-tokens", "--ci"];

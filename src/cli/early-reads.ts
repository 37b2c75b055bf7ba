import { spawn } from "node:child_process";
import { probeBwrapAsync, type SandboxProbe } from "../exec/sandbox.js";
import { repositoryConfig } from "../git/git.js";
import { identityOf, repoIdentity } from "../git/repo-identity.js";
import { trackedSecretFiles } from "../git/tracked-secrets.js";
import { inspectWithSnapshot, inspectWorkspace, type WorkspaceFacts } from "../git/workspace.js";

// The git reads a run or resume starts with, and bubblewrap's trial, made by a small Node process of their own
// (dist/cli/early-child.cjs): each read is a chain of git commands (the filter drivers, then the status, then a dirty
// tree's snapshot), and in yolo's own process every link of a chain waited for the main thread, busy compiling the CLI;
// and each spawn holds the thread that makes it until the child has exec'd (figures: docs/performance.md). The child runs it all
// meanwhile; each answer comes back as one JSON line as soon as it is known.

/** The reads' answers, as promises; a read that failed in the child rejects (the caller reads it again itself). */
export interface EarlyReads {
  identity: Promise<string>;
  workspace: Promise<WorkspaceFacts>;
  /** A new thread's start snapshot commit when the tree has uncommitted changes (inspectWithSnapshot), else null. */
  snapshot: Promise<string | null> | null;
  /** probeBwrapAsync for the child's PATH (yolo's). */
  sandbox: Promise<SandboxProbe>;
  /** The tracked files that look like secrets (trackedSecretFiles), for the start-of-leg warning; [] outside git. */
  trackedSecrets: Promise<string[]>;
  /**
   * Lets the process go: yolo has taken what it needs (or stopped). The child is told to end (its stdin closes), a
   * read still running there no longer holds yolo's exit (bubblewrap's trial with `sandbox: "off"`, whose answer is
   * never taken, ran up to its timeout), and a read not answered yet fails, so a late taker makes its own.
   */
  release(): void;
}

type Name = "identity" | "workspace" | "snapshot" | "sandbox" | "trackedSecrets";
/** One line of the child's output: a read's answer, or why it failed (as a message: no class crosses a process). */
type Answer = { read: Name; value: unknown } | { read: Name; error: string };

/**
 * Starts the child for `root` and `mode`. The child runs with yolo's environment minus Node's own variables
 * (NODE_OPTIONS could load anything; NODE_EXTRA_CA_CERTS alone triples its start) — git's allow-list applies inside it.
 */
export function readEarly(root: string, mode: "start" | "resume", script: string): EarlyReads {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("NODE_")));
  const child = spawn(process.execPath, [script, root, mode], { env, stdio: ["pipe", "pipe", "ignore"] });
  const pending = new Map<Name, { resolve(value: unknown): void; reject(error: Error): void }>();
  const expect = <T>(name: Name): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      pending.set(name, { resolve: resolve as (value: unknown) => void, reject });
    });
  const reads = {
    identity: expect<string>("identity"),
    workspace: expect<WorkspaceFacts & { filters?: [string, string][] }>("workspace").then((facts) =>
      // The filter drivers, read once for the status, are the CLI's for the snapshot's commands when it takes one itself.
      facts.filters === undefined ? { ...facts, filters: undefined } : { ...facts, filters: Promise.resolve(facts.filters) },
    ),
    snapshot: mode === "start" ? expect<string | null>("snapshot") : null,
    sandbox: expect<SandboxProbe>("sandbox"),
    trackedSecrets: expect<string[]>("trackedSecrets"),
  };
  let buffered = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      settle(line);
    }
  });
  const settle = (line: string) => {
    let answer: Answer;
    try {
      answer = JSON.parse(line) as Answer;
    } catch {
      return;
    }
    const waiting = pending.get(answer.read);
    pending.delete(answer.read);
    if ("error" in answer) waiting?.reject(new Error(answer.error));
    else waiting?.resolve(answer.value);
  };
  const end = (why: string) => {
    for (const waiting of pending.values()) waiting.reject(new Error(why));
    pending.clear();
  };
  child.on("error", (error) => end(`the early reads could not start: ${error.message}`));
  child.on("close", (code, signal) => end(`the early reads ended (${signal ?? `exit ${code}`}) before answering`));
  // Nothing is written to it: its end tells the child that yolo has gone.
  child.stdin.on("error", () => {});
  // A read nobody takes (a run refused first) must not end yolo as an unhandled rejection.
  for (const read of Object.values(reads)) read?.catch(() => {});
  const release = () => {
    end("the early reads were released");
    child.stdin.end();
    child.unref();
    for (const stream of [child.stdin, child.stdout]) (stream as unknown as { unref?(): void }).unref?.();
  };
  return { ...reads, release };
}

/**
 * The child's side: runs the reads in `root` for `mode` (the same functions the CLI would call) and writes each
 * answer as a JSON line when it settles. Resolves when all have been written.
 */
export async function answerEarlyReads(root: string, mode: "start" | "resume", write: (line: string) => void): Promise<void> {
  // A new thread reads the filter drivers (for its status) and the origin (its identity) with one git command.
  const config = mode === "start" ? repositoryConfig(root) : null;
  const start = config ? inspectWithSnapshot(root, { filters: config.then((c) => c.filters) }) : null;
  const workspace = start?.facts ?? inspectWorkspace(root, mode);
  const say = (read: Name, promise: Promise<unknown>) =>
    promise.then(
      (value) => write(`${JSON.stringify({ read, value })}\n`),
      (error: unknown) => write(`${JSON.stringify({ read, error: (error as Error)?.message ?? String(error) })}\n`),
    );
  await Promise.all([
    say("identity", config ? config.then((c) => identityOf(c.originUrl, root)) : repoIdentity(root)),
    say(
      "workspace",
      workspace.then(async (facts) => ({ ...facts, filters: facts.filters ? await facts.filters : undefined })),
    ),
    ...(start ? [say("snapshot", start.snapshot)] : []),
    say("sandbox", probeBwrapAsync(process.env.PATH)),
    // Listed once the status has said this is a repository (the list is only asked for there), after the reads above.
    say(
      "trackedSecrets",
      workspace.then((facts) => (facts.inRepo ? trackedSecretFiles(root) : [])),
    ),
  ]);
}

import { isAbsolute, resolve } from "node:path";
import type { ResolvedConfig } from "../../config/schema.js";
import { changeReader } from "../../git/changed-files.js";
import { trackedSecretsNotice } from "../../git/tracked-secrets.js";
import { prepareWorkspace, type Workspace, type WorkspaceFacts } from "../../git/workspace.js";
import type { FetchLike } from "../../llm/recording.js";
import type { McpRecordingSpec } from "../../mcp/recording.js";
import type { ThreadStore } from "../../store/thread-store.js";
import type { ChangeReader, WorkspaceHook } from "../deps.js";
import type { LaunchFront, SetupFact } from "./front.js";
import type { LaunchFlags, LaunchReplay } from "./request.js";

export interface RunSetup {
  /** What the engine's dependencies get: the model transport and the git hook. */
  deps: { transport?: { fetch: FetchLike; replay: boolean }; workspace?: WorkspaceHook; mcpRecording?: McpRecordingSpec; changes?: ChangeReader };
  /** For a new thread: where it starts in git, recorded in the thread index. */
  start: { startCommit: string | null; branch: string | null };
  /** A new thread's start snapshot still being taken (`start.startCommit` is null meanwhile): recorded before the run changes anything. */
  pendingStart: Promise<string> | null;
  /**
   * Warnings for the start of the run: a dirty tree recorded as the start, a project outside git, tracked files that
   * look like secrets. Asked for after run.started: only then is the list of tracked files made (`git ls-files`).
   */
  notices(): Promise<string[]>;
  /** With --branch: where the run leaves the user (the thread's branch) and how to go back; said again at the end. */
  branchNote: string | null;
  /** Resolves when the session being recorded is completely on disk. */
  finish(): Promise<void>;
}

type Mode = "start" | "resume";

/**
 * The leg's workspace step: git (start commit; with --branch the branch, refusing a dirty tree) and the model transport
 * (--record / --replay) for a run or resume of `threadId`. Branch mode sticks to a thread: a resume keeps committing
 * on the thread's branch unless --no-branch is given.
 */
export async function prepareRunSetup(input: {
  cwd: string;
  config: ResolvedConfig;
  flags: LaunchFlags;
  threadId: string;
  mode: Mode;
  /** The thread index (a resume's row says whether it runs on its own branch and where it started). */
  threads: ThreadStore;
  replay: LaunchReplay | null;
  /** No model is configured and the resumed thread needs none (it only reports where it stands). */
  modelless?: boolean;
  /** inspectWorkspace for this root and mode, when the caller started it early (its git runs meanwhile). */
  workspace?: Promise<WorkspaceFacts>;
  /** startSnapshot for this thread, when the caller started it early. */
  snapshot?: Promise<string | null>;
  words: LaunchFront["words"];
}): Promise<RunSetup> {
  const { config, flags, threadId, mode } = input;
  const row = mode === "resume" ? await input.threads.get(threadId) : null;
  const branch = mode === "resume" ? (flags.branch ?? row?.branch != null) : config.branch;
  const ws = await prepareWorkspace({
    root: config.root,
    threadId,
    branch,
    allowDirty: flags.allowDirty === true,
    mode,
    facts: input.workspace,
    snapshot: input.snapshot,
    allowExec: config.files.allowExec,
  });
  const workspace: WorkspaceHook | undefined = ws.commit ? { afterDev: ws.commit } : undefined;
  // A resumed thread's start is the one recorded when it started (a snapshot ref for a dirty tree).
  const changes = ws.inRepo ? changeReader(config.root, mode === "start" ? (ws.pendingStart ?? ws.startCommit) : (row?.startCommit ?? null)) : undefined;
  const { transport, finish } = await modelTransport(input);
  const say = input.words.setup;
  const branchFact = ws.branch ? ({ kind: "branch", branch: ws.branch, from: ws.switchedFrom ?? null } as const) : null;
  return {
    deps: {
      ...(transport ? { transport } : {}),
      ...(workspace ? { workspace } : {}),
      ...(changes ? { changes } : {}),
      ...mcpRecording(input.cwd, flags, mode),
    },
    start: { startCommit: ws.startCommit, branch: ws.branch },
    pendingStart: ws.pendingStart,
    notices: once(() =>
      startNotices(
        setupFacts(config, ws, mode).map(say),
        ws.inRepo ? trackedSecretsNotice(config.root) : null,
        branchFact && (mode === "start" || ws.switchedFrom) ? [say(branchFact)] : [],
      ),
    ),
    branchNote: branchFact ? say(branchFact) : null,
    finish,
  };
}

// `make`'s promise, made when first asked for.
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | null = null;
  return () => (made ??= make());
}

// The start's notices in their order, once the tracked-secrets warning is known (it is never a rejection: a list git
// cannot make is none). A leg that never builds its engine (a finished thread reported) never asks for them.
function startNotices(facts: string[], secrets: Promise<string[]> | null, branch: string[]): Promise<string[]> {
  const notices = (secrets ?? Promise.resolve([])).then((found) => [...facts, ...found, ...branch]);
  notices.catch(() => {});
  return notices;
}

// The model's transport: a replayed session, none at all (the thread needs no model), a recorded one, or the default.
async function modelTransport(input: Parameters<typeof prepareRunSetup>[0]): Promise<{ transport?: RunSetup["deps"]["transport"]; finish(): Promise<void> }> {
  const context = { root: input.config.root, threadId: input.threadId };
  const finish = async () => {};
  if (input.replay) {
    const { createReplayer } = await import("../../llm/recording-replay.js");
    const replay = input.replay;
    // The recording (read and checked already) is indexed at the first model call, after run.started.
    let replayer: ReturnType<typeof createReplayer> | null = null;
    return { transport: { fetch: (request, init) => (replayer ??= createReplayer({ ...replay, context })).fetch(request, init), replay: true }, finish };
  }
  if (input.modelless) {
    const refuse = input.words.noModel;
    // A request is refused, never sent.
    return { transport: { fetch: async () => Promise.reject(refuse()), replay: true }, finish };
  }
  if (!input.flags.record) return { finish };
  const { createRecorder } = await import("../../llm/recording.js");
  const recorder = createRecorder({ file: absolute(input.cwd, input.flags.record), append: input.mode === "resume", context });
  return { transport: { fetch: recorder.fetch, replay: false }, finish: recorder.flush };
}

/** MCP calls are recorded beside `--record`'s file and replayed from beside `--replay`'s (src/mcp/recording.ts). */
function mcpRecording(cwd: string, flags: LaunchFlags, mode: Mode): { mcpRecording?: McpRecordingSpec } {
  if (flags.replay) return { mcpRecording: { file: absolute(cwd, flags.replay), mode: "replay" } };
  if (flags.record) return { mcpRecording: { file: absolute(cwd, flags.record), mode: "record", append: mode === "resume" } };
  return {};
}

/**
 * What a user should know at the start about the project and the checkout: a nearer yolo.config.ts, no git, or a new
 * thread's uncommitted changes (recorded as the start, so they are not counted as yolo's).
 */
export function setupFacts(config: Pick<ResolvedConfig, "root" | "gitRoot">, ws: Pick<Workspace, "inRepo" | "dirty" | "branch">, mode: Mode): SetupFact[] {
  const facts: SetupFact[] = config.gitRoot ? [{ kind: "project-nearer", root: config.root, gitRoot: config.gitRoot }] : [];
  if (!ws.inRepo) return [...facts, { kind: "not-a-repository" }];
  if (mode === "start" && ws.dirty.length && !ws.branch) facts.push({ kind: "dirty-start", dirty: ws.dirty });
  return facts;
}

function absolute(cwd: string, path: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}

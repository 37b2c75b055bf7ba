import { isAbsolute, resolve } from "node:path";
import type { RunFlags } from "../config/run-flags.js";
import type { ResolvedConfig } from "../config/schema.js";
import type { ChangeReader, WorkspaceHook } from "../engine/api.js";
import { changeReader } from "../git/changed-files.js";
import type { ThreadStore } from "../store/thread-store.js";
import { ConfigError } from "../errors.js";
import { prepareWorkspace, type WorkspaceFacts } from "../git/workspace.js";
import type { FetchLike, RecordedExchange } from "../llm/recording.js";
import type { McpRecordingSpec } from "../mcp/recording.js";
import { shellQuote } from "./wording/shell-quote.js";
import { trackedSecretsNotice } from "./tracked-secrets.js";

/** The flags of run and resume that this module turns into engine inputs (picked from the one RunFlags type). */
export type RunSetupFlags = Pick<RunFlags, "ci" | "json" | "record" | "replay" | "branch" | "allowDirty" | "db" | "model" | "baseUrl" | "testCmd">;

/**
 * Unattended: `--ci`, or `CI` set to anything non-empty (as CI services do). Never prompts, never reads stdin;
 * a question ends the run with exit 3 and the command that answers it.
 */
export function isUnattended(flags: Pick<RunSetupFlags, "ci">, env: Readonly<Record<string, string | undefined>>): boolean {
  return flags.ci === true || (env.CI ?? "") !== "";
}

/** The replay session, read and checked before anything is created; a bad file or flag combination is exit 2. */
export async function loadReplay(cwd: string, flags: RunSetupFlags): Promise<{ file: string; exchanges: RecordedExchange[]; model?: string } | null> {
  if (flags.record && flags.replay) throw new ConfigError("--record and --replay exclude each other: record a session against a model, then replay it.");
  if (!flags.replay) return null;
  const { loadSession, recordedModel } = await import("../llm/recording-replay.js");
  const file = absolute(cwd, flags.replay);
  const exchanges = loadSession(file);
  return { file, exchanges, model: recordedModel(exchanges) };
}

export interface RunSetup {
  /** What the engine's dependencies get: the model transport and the git hook. */
  deps: { transport?: { fetch: FetchLike; replay: boolean }; workspace?: WorkspaceHook; mcpRecording?: McpRecordingSpec; changes?: ChangeReader };
  /** For a new thread: where it starts in git, recorded in the thread index. */
  start: { startCommit: string | null; branch: string | null };
  /** A new thread's start snapshot still being taken (`start.startCommit` is null meanwhile): recorded before the run changes anything. */
  pendingStart: Promise<string> | null;
  /** Options the printed resume command repeats so that it finds and continues the same thread the same way. */
  resumeArgs: string;
  /** Warnings for the start of the run: a dirty tree recorded as the start, a project outside git. */
  notices: string[];
  /** With --branch: where the run leaves the user (the thread's branch) and how to go back; said again at the end. */
  branchNote: string | null;
  /** Resolves when the session being recorded is completely on disk. */
  finish(): Promise<void>;
}

/**
 * Prepares git (start commit; with --branch the branch, refusing a dirty tree) and the model transport
 * (--record / --replay) for a run or resume of `threadId`. Branch mode sticks to a thread: a resume keeps
 * committing on the thread's branch unless --no-branch is given.
 */
export async function prepareRunSetup(input: {
  cwd: string;
  config: ResolvedConfig;
  flags: RunSetupFlags;
  threadId: string;
  mode: "start" | "resume";
  /** The thread index (a resume's row says whether it runs on its own branch and where it started). */
  threads: ThreadStore;
  replay: { file: string; exchanges: RecordedExchange[] } | null;
  /** No model is configured and the resumed thread needs none (it only reports where it stands). */
  modelless?: boolean;
  /** inspectWorkspace for this root and mode, when the caller started it early (its git runs meanwhile). */
  workspace?: Promise<WorkspaceFacts>;
  /** startSnapshot for this thread, when the caller started it early. */
  snapshot?: Promise<string | null>;
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

  const context = { root: config.root, threadId };
  let transport: RunSetup["deps"]["transport"];
  let finish = async () => {};
  if (input.replay) {
    const { createReplayer } = await import("../llm/recording-replay.js");
    const replay = input.replay;
    // The recording (read and checked already) is indexed at the first model call, after run.started.
    let replayer: ReturnType<typeof createReplayer> | null = null;
    transport = { fetch: (request, init) => (replayer ??= createReplayer({ ...replay, context })).fetch(request, init), replay: true };
  } else if (input.modelless) {
    transport = { fetch: noModel, replay: true };
  } else if (flags.record) {
    const { createRecorder } = await import("../llm/recording.js");
    const recorder = createRecorder({ file: absolute(input.cwd, flags.record), append: mode === "resume", context });
    transport = { fetch: recorder.fetch, replay: false };
    finish = recorder.flush;
  }
  return {
    deps: {
      ...(transport ? { transport } : {}),
      ...(workspace ? { workspace } : {}),
      ...(changes ? { changes } : {}),
      ...mcpRecording(input.cwd, flags, mode),
    },
    start: { startCommit: ws.startCommit, branch: ws.branch },
    pendingStart: ws.pendingStart,
    resumeArgs: resumeArgs(flags),
    notices: [
      ...projectNotices(config),
      ...workspaceNotices(ws, mode),
      ...(ws.inRepo ? await trackedSecretsNotice(config.root) : []),
      ...(ws.branch && (mode === "start" || ws.switchedFrom) ? [branchNote(ws.branch, ws.switchedFrom)] : []),
    ],
    branchNote: ws.branch ? branchNote(ws.branch, ws.switchedFrom ?? null) : null,
    finish,
  };
}

/** MCP calls are recorded beside `--record`'s file and replayed from beside `--replay`'s (src/mcp/recording.ts). */
function mcpRecording(cwd: string, flags: RunSetupFlags, mode: "start" | "resume"): { mcpRecording?: McpRecordingSpec } {
  if (flags.replay) return { mcpRecording: { file: absolute(cwd, flags.replay), mode: "replay" } };
  if (flags.record) return { mcpRecording: { file: absolute(cwd, flags.record), mode: "record", append: mode === "resume" } };
  return {};
}

/** ` --db x --replay y …`: the given options a resume needs to find the thread and talk to the same model. */
export function resumeArgs(flags: RunSetupFlags): string {
  const pairs: [string, string | undefined][] = [
    ["--db", flags.db],
    ["--model", flags.model],
    ["--base-url", flags.baseUrl],
    ["--replay", flags.replay],
    ["--record", flags.record],
    ["--test-cmd", flags.testCmd],
  ];
  return pairs
    .filter((p): p is [string, string] => typeof p[1] === "string" && p[1] !== "")
    .map(([flag, value]) => ` ${flag} ${shellQuote(value)}`)
    .join("");
}

export { shellQuote };

function absolute(cwd: string, path: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}

/** The transport of a run that must not call a model (none is configured): a request is refused, never sent. */
const noModel: FetchLike = async () => {
  throw new ConfigError(
    "this thread needs a model to continue, and none is configured: set OPENAI_API_KEY, or point OPENAI_BASE_URL (or --base-url) at an OpenAI-compatible server.",
  );
};

/** Branch mode switches the checkout: say to which branch, that it stays checked out, and the command back. */
export function branchNote(branch: string, from: string | null | undefined): string {
  const back = from ? `git switch ${from}` : "git checkout - (the checkout before it)";
  return `Working on branch ${branch}: each dev iteration is committed there, and it stays checked out after the run. Go back with: ${back}`;
}

/** A yolo.config.ts nearer than the repository's top level makes its folder the project: said at the start. */
export function projectNotices(config: Pick<ResolvedConfig, "root" | "gitRoot">): string[] {
  if (!config.gitRoot) return [];
  return [`The project is ${config.root} (its own yolo.config.ts is nearer than the repository's top level ${config.gitRoot})`];
}

/**
 * What a user should know at the start about the checkout: its uncommitted changes (recorded as the start, so
 * they are not counted as yolo's), or that there is no git. Short enough for one plain line.
 */
export function workspaceNotices(ws: { inRepo: boolean; dirty: string[]; branch: string | null }, mode: "start" | "resume"): string[] {
  if (!ws.inRepo) return ["Not a git repository: show --diff, --branch and the report's changed files need one (git init, then commit)"];
  if (mode !== "start" || !ws.dirty.length || ws.branch) return [];
  const names = ws.dirty.slice(0, 3).map((l) => l.slice(3));
  const list = `${names.join(", ")}${ws.dirty.length > names.length ? `, +${ws.dirty.length - names.length} more` : ""}`;
  return [`The work tree had uncommitted changes (${list}): kept as yours, show --diff and the report list only yolo's changes`];
}

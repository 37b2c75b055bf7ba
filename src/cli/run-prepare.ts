import { join } from "node:path";
import type { AgentDefinition } from "../agents/types.js";
import { assertModelConfigured } from "../config/resolve.js";
import type { RunFlags as AllRunFlags } from "../config/run-flags.js";
import type { ResolvedConfig } from "../config/schema.js";
import {
  configForProfile,
  databaseExists,
  databaseName,
  type EngineDeps,
  type LaunchLeg,
  type LaunchPlan,
  loadHistory,
  loadModes,
  openSessionDeferred,
  preloadLightResume,
  runFacts,
  type Session,
  type ThreadProfile,
} from "../engine/api.js";
import { probeBwrapAsync } from "../exec/sandbox.js";
import { repoIdentity } from "../git/repo-identity.js";
import { inspectWorkspace, startSnapshot } from "../git/workspace.js";
import { acquireTreeLock } from "../store/tree-lock.js";
import { agentsCache, pipelineAgents } from "./agents-cache.js";
import { takeEarlyProbes } from "./early-probes.js";
import { loadResolvedConfig, type ConfigFlags, withTestCommand } from "./load-config.js";
import { threadTestCommand } from "../store/thread-test-command.js";
import { loadReplay, prepareRunSetup, type RunSetup } from "./run-setup.js";
import { noDatabaseYet } from "./thread-home.js";
import { userCacheDir } from "./user-cache-dir.js";
import { cliRunWords } from "./wording/run-words.js";

/** What commander gives a run, agent, chat or resume action: the one RunFlags type. */
export type RunFlags = ConfigFlags & AllRunFlags;

/** The first leg a command asks for; `fork` runs `threadId` forked from another thread's checkpoint first. */
export type FirstLeg = LaunchLeg & { fork?: { source: string; from: string } };

/** Everything a command holds while its thread runs: the engine's launch plan and what to release at the end. */
export interface Prepared {
  plan: LaunchPlan;
  /** The first leg, with the read its thread was prepared from. */
  leg: LaunchLeg;
  setup: RunSetup;
  answers: import("./answers-file.js").AnswerEntry[] | null;
  lock: { release(): void } | null;
  close(): Promise<void>;
  /** After a leg: later legs repeat the engine's own notices (the sandbox), not the workspace's. */
  resetNotices(): Promise<void>;
}

type Threaded = { config: ResolvedConfig; agents: Map<string, AgentDefinition> };

/**
 * Checks and prepares a thread's run before anything is emitted: everything that refuses it (exit 2) is found here,
 * in the order a user meets it. What only reads (git, bubblewrap's trial sandbox) runs in child processes meanwhile.
 */
export async function prepareLaunch(cwd: string, flags: RunFlags, first: FirstLeg, preloadView: () => void): Promise<Prepared> {
  const before = await beforeDatabase(cwd, flags, first, preloadView);
  const { config, replay } = before;
  // One live run per working tree (a chat only reads): taken before the database, the branch or the tree is touched.
  const lock = first.start?.profile?.mode === "chat" ? null : acquireTreeLock({ stateDir: config.stateDir, root: config.root, threadId: first.threadId });
  // The state folder (with its .gitignore) exists before anything, the log file included, is written into it. The
  // database is opened and checked now; LangGraph's checkpointer is loaded when first needed.
  const opened = await openSessionDeferred(config);
  const closing = (error: unknown) => opened.close().then(() => Promise.reject(error));
  const read = await readThread(before, first, opened, closing);
  // From here a refusal also gives back the lease the thread was read under.
  const refused = read.release;
  // A resume's answers file inside the project must be what it was when the thread started (answers-trust.ts).
  if (first.resume && flags.answers !== undefined) await answersUnchanged(flags.answers, cwd, config.root, opened, first).catch(refused);
  const setup = await prepareRunSetup({
    cwd,
    config,
    flags,
    threadId: first.threadId,
    mode: first.start ? "start" : "resume",
    threads: opened.threads,
    replay,
    modelless: read.modelless,
    workspace: before.workspace,
    snapshot: before.snapshot,
  }).catch(refused);
  // Secrets registered (even run.started is scrubbed), the sandbox chosen (a required one missing is exit 2), the gates found.
  if (!before.startFacts) await before.probing;
  const facts = before.startFacts ?? runFacts(read.thread.config, process.env, { keepReadOnly: before.keepReadOnly });
  const { engine, engineAsked, resetNotices } = engineLoader(read.thread, before.logFile, opened.session, { ...setup.deps, facts }, setup.notices);
  const plan: LaunchPlan = {
    config: read.thread.config,
    agents: read.thread.agents,
    threads: opened.threads,
    rows: read.reader,
    session: opened.session,
    facts: { sandbox: facts.sandbox.status, gates: facts.gates },
    env: process.env,
    logFile: before.logFile,
    words: cliRunWords(setup.resumeArgs),
    // A dirty tree's start snapshot is taken while run.started goes out.
    origin: { ...setup.start, repo: read.repo, pendingStartCommit: setup.pendingStart },
    engine,
    engineAsked,
  };
  // Every refusal is behind: the leg starts, and the thread keeps its --test-cmd for the legs after it.
  before.testCmd.keep();
  // The first leg decides from the read just taken, under the lease it was taken with.
  const leg: LaunchLeg = { threadId: first.threadId, start: first.start, resume: first.resume, ...(read.read ? { read: read.read } : {}) };
  return { plan, leg, setup, answers: before.answers, lock, close: () => opened.close(), resetNotices };
}

// The checks and reads before the database is opened, in the order a refusal is met.
async function beforeDatabase(cwd: string, flags: RunFlags, first: FirstLeg, preloadView: () => void) {
  // A replay with no model configured talks to the model its session was recorded with.
  const replay = await loadReplay(cwd, flags);
  // The config runs as the bundle the user trusted; a changed one is refused here as in every command (config-trust.ts).
  const loaded = await loadResolvedConfig(cwd, { ...flags, defaultModel: replay?.model, testCmd: undefined });
  // The thread's `--test-cmd` holds on every leg: a resume without the flag runs the same gate, not the configured one.
  const testCmd = threadTestCommand(loaded.stateDir, first.threadId, flags.testCmd, first.fork?.source ?? first.threadId);
  const baseConfig = testCmd.command === null ? loaded : withTestCommand(loaded, testCmd.command);
  // What only reads — git (the repository's identity, HEAD, a new thread's uncommitted changes) and bubblewrap's
  // trial sandbox — runs in child processes while the checks below go on; each answer is used where it was asked
  // for before, so the same problem refuses the run in the same order.
  // The shim may have started them already, before this code had loaded (src/cli/early-probes.ts).
  // A read that failed there is made again here, so its error is this code's own (the shim's are only messages).
  const mode = first.start ? "start" : "resume";
  const probed = takeEarlyProbes(baseConfig.root, mode);
  const identity = probed?.identity.catch(() => repoIdentity(baseConfig.root)) ?? repoIdentity(baseConfig.root);
  identity.catch(() => {});
  const workspace = probed?.workspace.catch(() => inspectWorkspace(baseConfig.root, mode)) ?? inspectWorkspace(baseConfig.root, mode);
  workspace.catch(() => {});
  const probing = baseConfig.sandbox === "off" ? null : probeBwrapAsync(process.env.PATH, probed?.sandbox);
  // A new thread's agents are checked before anything is created; a resumed one's once its mode is read.
  const early = first.start ? await threadSetup(baseConfig, first.start.profile ?? { mode: "run" }) : null;
  const config = early?.config ?? baseConfig;
  const logFile = join(config.stateDir, "logs", `${first.threadId}.log`);
  const answers = flags.answers !== undefined ? (await import("./answers-file.js")).loadAnswers(flags.answers) : null;
  // A new thread needs a model before anything is created; a resumed one is found first, since an unknown or
  // finished thread (reported, nothing runs) is no reason to ask for a key.
  if (first.start) assertModelConfigured(config, { replay: replay !== null });
  // A dirty tree's start snapshot is written (git objects only) while the sandbox and the database are checked; it
  // is kept by its ref where it was taken before (a refused start leaves at most unreferenced objects for git gc).
  const snapshot = first.start ? startSnapshot(workspace, { root: config.root, branch: config.branch, early: probed?.snapshot }) : undefined;
  snapshot?.catch(() => {});
  // The live view's first frame needs Ink and React: they load while the rest of the start is prepared.
  preloadView();
  if (first.resume && !databaseExists(config)) throw noDatabaseYet(first.fork?.source ?? first.threadId, databaseName(config));
  // A new thread's secrets are registered, its sandbox chosen (a required one missing is exit 2) and its gates found
  // before its database or branch is touched; a resumed thread's once its mode is read.
  if (early) await probing;
  // yolo's cache folder holds code it runs unsandboxed (the light CLI's code cache, the config's transpiled form): a
  // project that contains it (the home directory) gets it read-only inside the sandbox.
  const keepReadOnly = [userCacheDir(process.env)];
  const startFacts = early ? runFacts(early.config, process.env, { keepReadOnly }) : null;
  return { replay, baseConfig, config, early, identity, workspace, probing, logFile, answers, snapshot, keepReadOnly, startFacts, testCmd };
}

type Opened = Awaited<ReturnType<typeof openSessionDeferred>>;

async function answersUnchanged(file: string, cwd: string, root: string, opened: Opened, first: FirstLeg): Promise<void> {
  const row = await opened.threads.get(first.fork?.source ?? first.threadId);
  const { checkAnswersFile } = await import("./answers-trust.js");
  await checkAnswersFile(file, cwd, root, row?.startCommit ?? null);
}

// A resumed thread (or a fork's source) read once, and checked, by the engine's readLeg; then its config and agents,
// and the fork.
async function readThread(before: Awaited<ReturnType<typeof beforeDatabase>>, first: FirstLeg, opened: Opened, closing: (e: unknown) => Promise<never>) {
  const { baseConfig, config, replay } = before;
  // On SQLite the checkpoint reader stands in for LangGraph when it reads the latest checkpoint exactly
  // (src/engine/stored-thread.ts), through the session's own connection; a fork's new thread is read with LangGraph.
  const rows = first.resume && !first.fork && opened.rows ? await opened.rows().catch(closing) : null;
  const read = first.resume
    ? await preloadLightResume()
        .then(({ readLeg }) =>
          readLeg({
            config: baseConfig,
            rows,
            threads: opened.threads,
            session: opened.session,
            threadId: first.fork?.source ?? first.threadId,
            fork: Boolean(first.fork),
            resume: first.resume!,
            repo: before.identity,
            replay: replay !== null,
          }),
        )
        .catch(closing)
    : null;
  const release = (error: unknown) => Promise.resolve(read?.lease?.release()).then(() => closing(error));
  const repo = await before.identity;
  const thread: Threaded = before.early ?? (await threadSetup(baseConfig, read?.profile ?? { mode: "run" }).catch(release));
  if (first.fork) await fork(config, await opened.session().catch(closing), first.threadId, first.fork).catch(closing);
  return { reader: rows, repo, modelless: read?.modelless ?? false, thread, read: first.fork ? null : read, release };
}

// Forks the new thread from the source's checkpoint, and says so on stderr.
async function fork(config: ResolvedConfig, session: Session, threadId: string, from: { source: string; from: string }): Promise<void> {
  const { forkThread } = await loadHistory();
  const entry = await forkThread(config, session, from.source, from.from, threadId);
  process.stderr.write(`yolo: thread ${threadId} forked from ${from.source} at step ${entry.step} (after ${entry.node}); ${from.source} is unchanged\n`);
}

/**
 * The config and agents a thread runs with: a `run` thread the configured workflow (its agents validated, or known
 * valid from the agents cache), the others their one agent.
 */
async function threadSetup(config: ResolvedConfig, profile: ThreadProfile): Promise<Threaded> {
  if (profile.mode === "run") return { config, agents: await pipelineAgents(config, agentsCache(process.env)) };
  const { loadSoloAgents } = await loadModes();
  return { config: configForProfile(config, profile), agents: loadSoloAgents(config, profile) };
}

/**
 * The engine's deps and the whole session, built once; a new thread's first leg asks for them after run.started.
 * The workspace's notices are said once, at the start of the first leg (a question answered inline starts another).
 */
function engineLoader(
  thread: Threaded,
  logFile: string,
  session: () => Promise<Session>,
  extra: Parameters<typeof import("./run-deps.js").engineDeps>[3],
  setupNotices: string[],
) {
  type Engine = { deps: EngineDeps; session: Session; notices: string[] };
  let engine = null as Promise<Engine> | null;
  const load = () => {
    engine ??= Promise.all([import("./run-deps.js"), session()]).then(async ([{ engineDeps }, session]) => {
      const deps = await engineDeps(thread.config, thread.agents, logFile, extra);
      const notices = deps.notices ?? [];
      deps.notices = [...notices, ...setupNotices];
      return { deps, session, notices };
    });
    return engine;
  };
  return {
    engine: () => load().then(({ deps, session }) => ({ deps, session })),
    engineAsked: () => (engine ? engine.then(({ deps, session }) => ({ deps, session })) : null),
    resetNotices: async () => {
      const built = await engine?.catch(() => null);
      if (built) built.deps.notices = built.notices;
    },
  };
}

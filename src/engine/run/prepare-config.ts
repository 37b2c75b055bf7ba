import { join } from "node:path";
import { agentsCache, pipelineAgents } from "../../agents/agents-cache.js";
import type { AgentDefinition } from "../../agents/types.js";
import { loadProjectConfig, withKeptApprovals, withTestCommand } from "../../config/load-project.js";
import { assertModelConfigured } from "../../config/resolve.js";
import type { ResolvedConfig } from "../../config/schema.js";
import { userCacheDir } from "../../config/user-cache-dir.js";
import { probeBwrapAsync } from "../../exec/sandbox.js";
import { repoIdentity } from "../../git/repo-identity.js";
import { inspectWorkspace, startSnapshot } from "../../git/workspace.js";
import { loadSqliteDriver } from "../../store/db.js";
import { threadApprovals } from "../../store/thread-approvals.js";
import { threadTestCommand } from "../../store/thread-test-command.js";
import { databaseExists, databaseName } from "../session.js";
import { configForProfile, type ThreadProfile } from "../thread-profile.js";
import { projectSecrets, runFacts } from "./facts.js";
import type { LaunchFront } from "./front.js";
import { type LaunchRequest, threadRead } from "./request.js";

/** A thread's config and agents: the configured workflow's, or the one agent of an `agent` / `chat` thread. */
export type Threaded = { config: ResolvedConfig; agents: Map<string, AgentDefinition> };

export type ConfigStep = Awaited<ReturnType<typeof configStep>>;

/**
 * The leg's first step, before the database is opened: the config (as the bundle the user trusted) and the thread's
 * test command; the reads that only read (git, bubblewrap's trial) started; a new thread's agents, model, sandbox
 * and gates checked. Each refusal (exit 2) is met here in the order a user meets it.
 */
export async function configStep(request: LaunchRequest, front: LaunchFront) {
  const { cwd, flags, replay, threadId } = request;
  // The config runs as the bundle the user trusted; a changed one is refused here as in every command (config-trust.ts).
  const loaded = await loadProjectConfig(cwd, { ...flags, defaultModel: replay?.model, testCmd: undefined }, front.flagName);
  // The thread's `--test-cmd` holds on every leg: a resume without the flag runs the same gate, not the configured one.
  const testCmd = threadTestCommand(loaded.stateDir, threadId, flags.testCmd, threadRead(request));
  // So do its approvals: one an editor's plan mode asked for (YOLO_APPROVE) still stops a plain `yolo resume`.
  const approvals = threadApprovals(loaded.stateDir, threadId, loaded.approve, threadRead(request));
  const tested = testCmd.command === null ? loaded : withTestCommand(loaded, testCmd.command);
  const baseConfig = withKeptApprovals(tested, approvals.approve);
  const mode = request.kind === "new" ? "start" : "resume";
  const reads = startReads(baseConfig, mode, front);
  // A new thread's agents are checked before anything is created; a resumed one's once its mode is read.
  const early = request.kind === "new" ? await threadSetup(baseConfig, request.profile ?? { mode: "run" }) : null;
  const config = early?.config ?? baseConfig;
  const logFile = join(config.stateDir, "logs", `${threadId}.log`);
  await front.replies?.load();
  // A new thread needs a model before anything is created; a resumed one is found first, since an unknown or
  // finished thread (reported, nothing runs) is no reason to ask for a key.
  if (early) assertModelConfigured(config, { replay: replay !== null });
  // A dirty tree's start snapshot is written (git objects only) while the sandbox and the database are checked; it
  // is kept by its ref where it was taken before (a refused start leaves at most unreferenced objects for git gc).
  const snapshot = early ? startSnapshot(reads.workspace, { root: config.root, branch: config.branch, early: reads.started?.snapshot }) : undefined;
  snapshot?.catch(() => {});
  front.preloadView();
  if (!early && !databaseExists(config)) throw front.words.noDatabase(threadRead(request), databaseName(config));
  // What only reads and touches nothing of the project is done while bubblewrap's trial and git answer in the early
  // reads' process: the walk for the project's secret files, and the SQLite driver loaded (docs/performance.md).
  const secrets = projectSecrets(config.root);
  if (config.database.kind === "sqlite") loadSqliteDriver();
  // A new thread's secrets are registered, its sandbox chosen (a required one missing is exit 2) and its gates found
  // before its database or branch is touched; a resumed thread's once its mode is read.
  if (early) await reads.probing;
  // yolo's cache folder holds code it runs unsandboxed (the light CLI's code cache, the config's transpiled form): a
  // project that contains it (the home directory) gets it read-only inside the sandbox.
  const keepReadOnly = [userCacheDir(process.env)];
  const startFacts = early ? runFacts(early.config, process.env, { keepReadOnly, projectSecrets: secrets }) : null;
  const { identity, workspace, probing } = reads;
  return { baseConfig, config, early, identity, workspace, probing, logFile, snapshot, keepReadOnly, secrets, startFacts, testCmd, approvals };
}

/**
 * What only reads — git (the repository's identity, HEAD, a new thread's uncommitted changes) and bubblewrap's trial
 * sandbox — runs in child processes while the checks go on; each answer is used where it was asked for before, so
 * the same problem refuses the run in the same order. The front end may have started them before its code loaded; a
 * read that failed there is made again here, so its error is this code's own (the early ones are only messages).
 */
function startReads(config: ResolvedConfig, mode: "start" | "resume", front: LaunchFront) {
  const started = front.startedReads(config.root, mode);
  const identity = started?.identity.catch(() => repoIdentity(config.root)) ?? repoIdentity(config.root);
  identity.catch(() => {});
  const workspace = started?.workspace.catch(() => inspectWorkspace(config.root, mode)) ?? inspectWorkspace(config.root, mode);
  workspace.catch(() => {});
  const probing = config.sandbox === "off" ? null : probeBwrapAsync(process.env.PATH, started?.sandbox);
  return { started, identity, workspace, probing };
}

/**
 * The config and agents a thread runs with: a `run` thread the configured workflow (its agents validated, or known
 * valid from the agents cache), the others their one agent.
 */
export async function threadSetup(config: ResolvedConfig, profile: ThreadProfile): Promise<Threaded> {
  if (profile.mode === "run") return { config, agents: await pipelineAgents(config, agentsCache(process.env)) };
  const { loadSoloAgents } = await import("../modes.js");
  return { config: configForProfile(config, profile), agents: loadSoloAgents(config, profile) };
}

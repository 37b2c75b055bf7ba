import { acquireTreeLock } from "../../store/tree-lock.js";
import { openSessionDeferred } from "../session.js";
import { engineLoader } from "./engine-loader.js";
import { runFacts } from "./facts.js";
import type { LaunchFront } from "./front.js";
import type { LaunchLeg, LaunchPlan } from "./launch.js";
import { configStep } from "./prepare-config.js";
import { type Forked, threadStep } from "./prepare-thread.js";
import { firstLeg, type LaunchRequest, threadRead } from "./request.js";
import { prepareRunSetup } from "./workspace-setup.js";

/** A request prepared: the plan every leg of the thread runs with, its first leg, and what to give back at the end. */
export interface PreparedLaunch {
  plan: LaunchPlan;
  /** The first leg, with the read its thread was prepared from. */
  leg: LaunchLeg;
  /** A fork's copy, for the front end to say. */
  forked: Forked | null;
  /** With a branch: where the run leaves the user and how to go back (the front end says it again at the end). */
  branchNote: string | null;
  /** After a leg: later legs repeat the engine's own notices (the sandbox), not the workspace's. */
  resetNotices(): Promise<void>;
  /** Gives back what the thread held: the recorded session flushed, the database closed, the tree lock released. */
  close(): Promise<void>;
}

/**
 * From a request to its first leg, in the order a user meets each refusal (exit 2, nothing emitted): config and
 * trust, the tree lock, the database, the thread's one read under its lease (and a fork), the workspace and branch,
 * the sandbox and gates. What only reads (git, bubblewrap's trial sandbox) runs in child processes meanwhile.
 */
export async function prepareLaunch(request: LaunchRequest, front: LaunchFront): Promise<PreparedLaunch> {
  const before = await configStep(request, front);
  const { config } = before;
  const chat = request.kind === "new" && request.profile?.mode === "chat";
  // One live run per working tree (a chat only reads): taken before the database, the branch or the tree is touched.
  const lock = chat ? null : acquireTreeLock({ stateDir: config.stateDir, root: config.root, threadId: request.threadId });
  // The state folder (with its .gitignore) exists before anything, the log file included, is written into it. The
  // database is opened and checked now; LangGraph's checkpointer is loaded when first needed.
  const opened = await openSessionDeferred(config);
  const read = await threadStep(request, before, opened);
  // From here a refusal also gives back the lease the thread was read under.
  const refused = read.release;
  // A resume's prepared replies inside the project must be what they were when the thread started (answers-trust.ts).
  if (request.kind !== "new" && front.replies)
    await startOf(opened, threadRead(request))
      .then((start) => front.replies?.check(config.root, start))
      .catch(refused);
  const mode = request.kind === "new" ? "start" : "resume";
  const { cwd, flags, replay, threadId } = request;
  const { workspace, snapshot } = before;
  const threads = opened.threads;
  const setup = await prepareRunSetup({
    cwd,
    config,
    flags,
    threadId,
    mode,
    threads,
    replay,
    modelless: read.modelless,
    workspace,
    snapshot,
    words: front.words,
  }).catch(refused);
  // Secrets registered (even run.started is scrubbed), the sandbox chosen (a required one missing is exit 2), the gates found.
  if (!before.startFacts) await before.probing;
  const facts = before.startFacts ?? runFacts(read.thread.config, process.env, { keepReadOnly: before.keepReadOnly, projectSecrets: before.secrets });
  const loader = engineLoader({ thread: read.thread, logFile: before.logFile, session: opened.session, setup, facts, noticeWords: front.words.notice });
  const plan: LaunchPlan = {
    config: read.thread.config,
    agents: read.thread.agents,
    threads: opened.threads,
    rows: read.rows,
    session: opened.session,
    // The gates are found when first read (src/engine/run/facts.ts): after run.started, unless requireGate asks first.
    facts: {
      sandbox: facts.sandbox.status,
      get gates() {
        return facts.gates;
      },
    },
    env: process.env,
    logFile: before.logFile,
    words: front.words.run,
    // A dirty tree's start snapshot is taken while run.started goes out.
    origin: { ...setup.start, repo: read.repo, pendingStartCommit: setup.pendingStart },
    engine: loader.engine,
    engineAsked: loader.engineAsked,
  };
  // Every refusal is behind: the leg starts, and the thread keeps its --test-cmd and approvals for the legs after it.
  before.testCmd.keep();
  before.approvals.keep();
  // The first leg decides from the read just taken, under the lease it was taken with.
  const leg: LaunchLeg = { ...firstLeg(request), ...(read.read ? { read: read.read } : {}) };
  const close = async () => {
    await setup.finish();
    await opened.close();
    lock?.release();
  };
  return { plan, leg, forked: read.forked, branchNote: setup.branchNote, resetNotices: loader.resetNotices, close };
}

// Where a thread started in git (its start commit or dirty tree's snapshot), from its row.
async function startOf(opened: Awaited<ReturnType<typeof openSessionDeferred>>, threadId: string): Promise<string | null> {
  return (await opened.threads.get(threadId))?.startCommit ?? null;
}

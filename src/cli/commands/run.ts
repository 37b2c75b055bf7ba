import { join } from "node:path";
import { assertModelConfigured } from "../../config/resolve.js";
import type { RunHandle, RunResult, WaitingRequest } from "../../engine/run.js";
import type { YoloEvent } from "../../events/schema.js";
import { startRunEarly } from "../../engine/run/early.js";
import { runFacts } from "../../engine/run/facts.js";
import { databaseExists, databaseName, openSessionDeferred, type Session } from "../../engine/session.js";
import { profileOfValues } from "../../engine/thread-profile.js";
import type { ThreadIndex } from "../../store/thread-index.js";
import { repoIdentity } from "../../git/repo-identity.js";
import { inspectWorkspace, startSnapshot } from "../../git/workspace.js";
import { probeBwrapAsync } from "../../exec/sandbox.js";
import { assertSameRepository, noDatabaseYet } from "../thread-home.js";
import { takeEarlyProbes } from "../early-probes.js";
import { ConfigError } from "../../errors.js";
import { newThreadId } from "../../store/thread-id.js";
import { acquireTreeLock } from "../../store/tree-lock.js";
import { chooseRendererKind } from "../../ui/choose-renderer.js";
import { createJsonRenderer } from "../../ui/json-renderer.js";
import type { Renderer, StopMode } from "../../ui/renderer.js";
import { textFromStdin } from "../stdin-text.js";
import { configForProfile, type ThreadProfile } from "../../engine/thread-profile.js";
import type { AgentDefinition } from "../../agents/types.js";
import type { RunFlags as AllRunFlags } from "../../config/run-flags.js";
import type { ResolvedConfig } from "../../config/schema.js";
import type { ReviewResponse } from "../../engine/review.js";
import { askOnTerminal, reviewFromFlags, takeAnswer, type HumanReply } from "../human-input.js";
import { hardExit } from "../hard-exit.js";
import { loadResolvedConfig, type ConfigFlags } from "../load-config.js";
import { agentsCache, pipelineAgents } from "../agents-cache.js";
import { userCacheDir } from "../user-cache-dir.js";
import type { EngineDeps } from "../../engine/deps.js";
import { isUnattended, loadReplay, prepareRunSetup, type RunSetup } from "../run-setup.js";
import { inCliWords } from "../wording/error-text.js";
import { cliRunWords } from "../wording/run-words.js";

/** What commander gives a run, agent, chat or resume action: the one RunFlags type. */
type RunFlags = ConfigFlags & AllRunFlags;

/** `yolo run <requirement>`: a new thread. */
export async function runCommand(input: { cwd: string; requirement: string; opts: RunFlags }): Promise<number> {
  const requirement = input.requirement === "-" ? await textFromStdin('yolo run "…"') : input.requirement.trim();
  if (!requirement) throw new ConfigError('The requirement is empty. Usage: yolo run "what to build"');
  return execute(input.cwd, input.opts, { threadId: newThreadId(), start: { requirement } });
}

/**
 * `yolo resume <thread> [--answer | --approve | --edit | --reject | --from] [message…]`: continue from the last
 * checkpoint, or fork; a message continues a finished `agent` / `chat` thread's conversation.
 */
export async function resumeCommand(input: { cwd: string; thread?: string; message?: string; opts: RunFlags }): Promise<number> {
  const { opts } = input;
  const review = reviewFromFlags(opts) ?? undefined;
  if (!opts.last && input.thread === undefined)
    throw new ConfigError("Which thread? Give its id (yolo threads lists them), or --last for the one that ran last.");
  // With --last every word is the message: the first one is not a thread id.
  const words = opts.last ? [input.thread, input.message].filter((w): w is string => w !== undefined).join(" ") : input.message;
  const thread = opts.last ? await (await import("../resume-model.js")).lastThreadId(input.cwd, opts) : input.thread!;
  const message = words?.trim() ? words.trim() : undefined;
  if (opts.from !== undefined) {
    if (review || opts.answer !== undefined || message !== undefined)
      throw new ConfigError("--from starts a new thread: it cannot also answer the old one's question or take a message.");
    return execute(input.cwd, opts, { threadId: newThreadId(), resume: {}, fork: { source: thread, from: opts.from } });
  }
  return execute(input.cwd, opts, { threadId: thread, resume: { answer: opts.answer, review, message } });
}

/** `yolo agent <id> <message>` and `yolo chat <message>`: a new thread of one agent, or of a chat. */
export async function soloCommand(input: { cwd: string; profile: Exclude<ThreadProfile, { mode: "run" }>; message: string; opts: RunFlags }): Promise<number> {
  const usage = input.profile.mode === "agent" ? `yolo agent ${input.profile.agentId} "what to do"` : 'yolo chat "your question"';
  const message = input.message === "-" ? await textFromStdin(usage.replace(/"[^"]*"$/, '"…"')) : input.message.trim();
  if (!message) throw new ConfigError(`The message is empty. Usage: ${usage}`);
  return execute(input.cwd, input.opts, { threadId: newThreadId(), start: { requirement: message, profile: input.profile } });
}

type Leg = {
  threadId: string;
  start?: { requirement: string; profile?: ThreadProfile };
  resume?: { answer?: string; review?: ReviewResponse; message?: string };
  /** Fork `threadId` from this thread's checkpoint first. */
  fork?: { source: string; from: string };
};

/**
 * Runs legs of a thread until it ends or waits; in a terminal, questions are asked inline and the run goes on. A new
 * thread says `run.started` before the engine (LangGraph, the model client, the tools) is loaded: everything that
 * refuses a run is still checked first (exit 2, nothing emitted), and the engine loads while the event is shown.
 */
async function execute(cwd: string, flags: RunFlags, first: Leg): Promise<number> {
  // A replay with no model configured talks to the model its session was recorded with.
  const replay = await loadReplay(cwd, flags);
  // run, resume and agent are the user running yolo with this config: its hash is recorded; chat only reads.
  const trust = first.start?.profile?.mode === "chat" ? "check" : "record";
  const baseConfig = await loadResolvedConfig(cwd, { ...flags, defaultModel: replay?.model }, trust);
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
  const answers = flags.answers !== undefined ? (await import("../answers-file.js")).loadAnswers(flags.answers) : null;
  // A new thread needs a model before anything is created; a resumed one is found first, since an unknown or
  // finished thread (reported, nothing runs) is no reason to ask for a key.
  if (first.start) assertModelConfigured(config, { replay: replay !== null });
  // A dirty tree's start snapshot is written (git objects only) while the sandbox and the database are checked; it
  // is kept by its ref where it was taken before (a refused start leaves at most unreferenced objects for git gc).
  const snapshot = first.start ? startSnapshot(workspace, { root: config.root, branch: config.branch, early: probed?.snapshot }) : undefined;
  snapshot?.catch(() => {});
  // The live view's first frame needs Ink and React: they load while the rest of the start is prepared.
  if (rendererKind(flags) === "ink") loadInk().catch(() => {});
  if (first.resume && !databaseExists(config)) {
    const id = first.fork?.source ?? first.threadId;
    throw noDatabaseYet(id, databaseName(config));
  }
  // A new thread's secrets are registered, its sandbox chosen (a required one missing is exit 2) and its gates found
  // before its database or branch is touched; a resumed thread's once its mode is read.
  if (early) await probing;
  // yolo's cache folder holds code it runs unsandboxed (the light CLI's code cache, the config's transpiled form): a
  // project that contains it (the home directory) gets it read-only inside the sandbox.
  const keepReadOnly = [userCacheDir(process.env)];
  const startFacts = early ? runFacts(early.config, process.env, { keepReadOnly }) : null;
  // One live run per working tree (a chat only reads): taken before the database, the branch or the tree is touched.
  const lock = first.start?.profile?.mode === "chat" ? null : acquireTreeLock({ stateDir: config.stateDir, root: config.root, threadId: first.threadId });
  // The state folder (with its .gitignore) exists before anything, the log file included, is written into it. The
  // database is opened and checked now; LangGraph's checkpointer is loaded when first needed.
  const opened = await openSessionDeferred(config);
  // On SQLite a resumed thread (not a fork) is read by the checkpoint reader, which stands in for LangGraph when it
  // reads the latest checkpoint exactly (src/engine/stored-thread.ts); anything else is read with LangGraph.
  // It reads through the session's own connection (a second one would open and check the file again).
  let reader = null as Required<Pick<ThreadIndex, "checkpointRows">> | null;
  const closing = (error: unknown) => opened.close().then(() => Promise.reject(error));
  let quick: ReturnType<typeof import("../../engine/stored-thread.js").readLatestState> = null;
  const rows = opened.rows;
  if (first.resume && !first.fork && rows) {
    quick = await Promise.all([rows(), import("../../engine/stored-thread.js")])
      .then(([index, { readLatestState }]) => {
        reader = index;
        return readLatestState(baseConfig, index, first.threadId);
      })
      .catch(closing);
  }
  // The light resume's module loads while the rest of the start is prepared (git, the sandbox's trial).
  const light = quick ? import("../../engine/run/resume-early.js") : null;
  light?.catch(() => {});
  const repo = await identity;
  // A resumed thread is read (with LangGraph) before anything runs; a new one needs only the index until it started.
  const session = first.resume && !quick ? await opened.session().catch(closing) : null;
  // True when the resumed thread only reports where it stands (finished, waiting) and no model is configured.
  let modelless = false;
  if (quick) {
    modelless = await (async () => {
      const { hasModel, positionNeedsModel } = await import("../resume-model.js");
      await assertSameRepository(opened.threads, first.threadId, repo);
      if (positionNeedsModel(quick.position, first.resume!) || replay) assertModelConfigured(config, { replay: replay !== null });
      return !hasModel(config) && !replay;
    })().catch(closing);
  }
  if (first.resume && session) {
    const source = first.fork?.source ?? first.threadId;
    modelless = await (async () => {
      const [{ hasModel, resumeNeedsModel }, { inspectThread }] = await Promise.all([import("../resume-model.js"), import("../../engine/inspect.js")]);
      await assertSameRepository(session.threads, source, repo);
      // A fork runs from the source's checkpoint on a new thread: it always needs a model.
      const needed = first.fork ? (await inspectThread(config, session, source), true) : await resumeNeedsModel(config, session, source, first.resume!);
      if (needed || replay) assertModelConfigured(config, { replay: replay !== null });
      return !hasModel(config) && !replay;
    })().catch(closing);
  }
  const { config: threadConfig, agents } =
    early ??
    (quick
      ? await Promise.resolve(quick.values)
          .then((values) => threadSetup(baseConfig, profileOfValues(values)))
          .catch(closing)
      : await resumedSetup(baseConfig, session!, first.fork?.source ?? first.threadId).catch(closing));
  if (first.fork && session) {
    const { forkThread } = await import("../../engine/history.js");
    const entry = await forkThread(config, session, first.fork.source, first.fork.from, first.threadId).catch(closing);
    process.stderr.write(
      `yolo: thread ${first.threadId} forked from ${first.fork.source} at step ${entry.step} (after ${entry.node}); ${first.fork.source} is unchanged\n`,
    );
  }
  const setup = await prepareRunSetup({
    cwd,
    config,
    flags,
    threadId: first.threadId,
    mode,
    threads: opened.threads,
    replay,
    modelless,
    workspace,
    snapshot,
  }).catch(closing);
  // Secrets registered (even run.started is scrubbed), the sandbox chosen (a required one missing is exit 2), the gates found.
  if (!startFacts) await probing;
  const facts = startFacts ?? runFacts(threadConfig, process.env, { keepReadOnly });
  // The engine's deps and the whole session, built once; a new thread's first leg asks for them after run.started.
  type Engine = { deps: EngineDeps; session: Session; notices: string[] };
  let engine = null as Promise<Engine> | null;
  const loadEngine = () => {
    engine ??= Promise.all([import("../run-deps.js"), opened.session()]).then(([{ engineDeps }, session]) => {
      const deps = engineDeps(threadConfig, agents, logFile, { ...setup.deps, facts });
      // Said once, at the start of the first leg (a question answered inline starts another leg).
      const notices = deps.notices ?? [];
      deps.notices = [...notices, ...setup.notices];
      return { deps, session, notices };
    });
    return engine;
  };
  const words = cliRunWords(setup.resumeArgs);
  // The handle of one leg: a new thread starts early (run.started before the engine loads), a resume with the engine.
  const startLeg = async (leg: Leg): Promise<RunHandle> => {
    if (leg.start) {
      const start = { ...leg.start, ...setup.start, repo };
      const load = () => loadEngine().then(({ deps, session }) => ({ deps, session }));
      return startRunEarly({
        config: threadConfig,
        threads: opened.threads,
        threadId: leg.threadId,
        start,
        // A dirty tree's start snapshot is taken while run.started goes out.
        pendingStartCommit: setup.pendingStart,
        logFile,
        words,
        facts: { sandbox: facts.sandbox.status, gates: facts.gates },
        load,
      });
    }
    if (engine) {
      const { startRun } = await import("../../engine/run.js");
      const { deps, session } = await engine;
      return startRun({ deps, session, threadId: leg.threadId, resume: leg.resume, logFile, words });
    }
    // A resume reads where the thread stands and says so before the model client, tools and MCP servers load.
    const early = {
      config: threadConfig,
      agents,
      gates: facts.gates,
      sandboxStatus: facts.sandbox.status,
      hooks: (await import("../../hooks/setup.js")).setUpHooks(threadConfig, process.env).hooks,
      baseEnv: process.env,
    };
    const load = () => loadEngine().then(({ deps }) => deps);
    if (reader) {
      // run.started from the checkpoint reader when it stands in exactly; else resumeRunEarly's way, LangGraph first.
      const { resumeRunLight } = await (light ?? import("../../engine/run/resume-early.js"));
      return resumeRunLight({
        threadId: leg.threadId,
        resume: leg.resume,
        logFile,
        words,
        baseConfig,
        threads: opened.threads,
        rows: reader,
        early,
        session: opened.session,
        load,
      });
    }
    const { resumeRunEarly } = await import("../../engine/run.js");
    return resumeRunEarly({ session: await opened.session(), threadId: leg.threadId, resume: leg.resume, logFile, words, early, load });
  };
  // --ci (or CI set) never prompts and never reads stdin, even on a terminal: a question ends the run with exit 3.
  const interactive = !flags.json && !isUnattended(flags, process.env) && process.stdin.isTTY === true && process.stdout.isTTY === true;
  const stops = stopControl();
  let renderer: Renderer | null = null;
  try {
    // One renderer for every leg: the live view keeps drawing while a question is answered and the run goes on.
    const open = async () => {
      const view = await createRenderer(flags, { answersInline: interactive, onInterrupt: () => stops.press("SIGINT") });
      stops.notify((mode) => (view.onStopRequest ? view.onStopRequest(mode) : process.stderr.write(`yolo: ${STOP_NOTES[mode]}\n`)));
      return view;
    };
    let view = await open();
    renderer = view;
    let leg: Leg = first;
    // A question answered from --answers goes on in this process as the same leg: one run.started, one run.completed.
    const prepare = answers ? (request: WaitingRequest) => takeAnswer(answers, request) : null;
    let continued = false;
    for (;;) {
      const { result, question, prepared } = await runLeg(leg, await startLeg(leg), view, stops, setup, { prepare, continued });
      // Later legs repeat the engine's own notices (the sandbox), not the workspace's.
      const built = await engine?.catch(() => null);
      if (built) built.deps.notices = built.notices;
      // stdout carries only events under --json; a person reading the job log still sees why it failed.
      if (flags.json && result.exitCode !== 0) process.stderr.write(`yolo: ${result.status} (exit ${result.exitCode}): ${result.reason}\n`);
      // Prepared replies (--answers) first: they work unattended; anything without one fails closed (exit 3).
      if (prepared) {
        leg = { threadId: leg.threadId, resume: prepared };
        continued = true;
        continue;
      }
      continued = false;
      if (result.status !== "waiting" || !result.request || stops.requested()) return result.exitCode;
      if (!interactive) return result.exitCode;
      let reply: HumanReply | null;
      if (result.request.kind === "question" && question) {
        const answer = view.ask ? await view.ask(question) : await ask();
        reply = answer === null ? null : { answer };
      } else {
        // A review needs the whole terminal (and maybe $EDITOR): the live view steps aside while it is asked.
        await view.close();
        reply = await askOnTerminal(result.request, process.env);
        view = await open();
        renderer = view;
      }
      if (reply === null) return result.exitCode;
      leg = { threadId: leg.threadId, resume: reply };
    }
  } finally {
    stops.dispose();
    await renderer?.close();
    await setup.finish();
    await opened.close();
    lock?.release();
    // The view is gone: the last thing on the terminal says which branch the user is left on.
    if (setup.branchNote && !flags.json) process.stderr.write(`yolo: ${setup.branchNote}\n`);
  }
}

/**
 * The config and agents a thread runs with: a `run` thread the configured workflow (its agents validated, or known
 * valid from the agents cache), the others their one agent.
 */
async function threadSetup(config: ResolvedConfig, profile: ThreadProfile): Promise<{ config: ResolvedConfig; agents: Map<string, AgentDefinition> }> {
  if (profile.mode === "run") return { config, agents: await pipelineAgents(config, agentsCache(process.env)) };
  const { loadSoloAgents } = await import("../../engine/modes.js");
  return { config: configForProfile(config, profile), agents: loadSoloAgents(config, profile) };
}

/** `threadSetup` for a thread being resumed, from the mode stored in its checkpoint. */
async function resumedSetup(config: ResolvedConfig, session: Session, threadId: string) {
  const { readThreadProfile } = await import("../../engine/modes.js");
  return threadSetup(config, (await readThreadProfile(session, threadId)) ?? { mode: "run" });
}

/**
 * One leg: feeds the run's events to the renderer; returns the outcome, the agent's question it waits on, if any, and
 * the prepared reply (`--answers`) to it. With a prepared reply the waiting leg's run.completed is not shown, and the
 * leg that goes on (`continued`) shows no run.started of its own: to a reader it is one leg with one outcome.
 */
async function runLeg(
  leg: Leg,
  handle: RunHandle,
  renderer: Renderer,
  stops: StopControl,
  setup: RunSetup,
  opts: { prepare: ((request: WaitingRequest) => HumanReply | null) | null; continued: boolean },
): Promise<{ result: RunResult; question: string | null; prepared: HumanReply | null }> {
  let question: string | null = null;
  let held: YoloEvent | null = null;
  stops.attach(handle);
  try {
    for await (const event of handle.events) {
      if (event.type === "interrupt") question = (event.kind ?? "question") === "question" ? event.question : null;
      if (event.type === "run.started" && opts.continued) continue;
      // Held until the outcome says whether a prepared reply takes the run on.
      if (event.type === "run.completed" && event.status === "waiting" && opts.prepare) held = event;
      else renderer.onEvent(event);
    }
    // A refusal (an unknown thread, a reply it does not wait for) is said with this command's thread and options.
    const result = await handle.result.catch((error: unknown) => Promise.reject(inCliWords(error, { thread: leg.threadId, resumeArgs: setup.resumeArgs })));
    const waiting = result.status === "waiting" && result.request && !stops.requested();
    const prepared = waiting && opts.prepare && result.request ? opts.prepare(result.request) : null;
    if (held && !prepared) renderer.onEvent(held);
    return { result, question, prepared };
  } finally {
    stops.attach(null);
  }
}

const STOP_NOTES: Record<StopMode, string> = {
  "after-step": "stopping after the current step (Ctrl+C again to stop now)",
  now: "stopping now",
};

type StopControl = ReturnType<typeof stopControl>;

/**
 * Ctrl+C (SIGINT, or typed into the live view) once: the running step finishes and is checkpointed, then the
 * run stops with exit 130; twice: it stops at once (the last completed step stands); a third time: the
 * process exits. SIGTERM stops at once.
 */
function stopControl() {
  let handle: RunHandle | null = null;
  let presses = 0;
  let tell: (mode: StopMode) => void = () => {};
  // Applies the presses so far to the running leg.
  const apply = () => {
    if (!handle || presses === 0) return;
    if (presses === 1) handle.stopAfterStep();
    else handle.cancel();
  };
  const press = (signal: "SIGINT" | "SIGTERM") => {
    presses = signal === "SIGTERM" ? Math.max(presses + 1, 2) : presses + 1;
    if (presses > 2) hardExit(130);
    apply();
    tell(presses === 1 ? "after-step" : "now");
  };
  const onSigint = () => press("SIGINT");
  const onSigterm = () => press("SIGTERM");
  process.on("SIGINT", onSigint);
  process.on("SIGTERM", onSigterm);
  return {
    press,
    notify(fn: (mode: StopMode) => void) {
      tell = fn;
    },
    attach(h: RunHandle | null) {
      handle = h;
      apply();
    },
    requested: () => presses > 0,
    dispose() {
      process.off("SIGINT", onSigint);
      process.off("SIGTERM", onSigterm);
    },
  };
}

function rendererKind(flags: RunFlags) {
  return chooseRendererKind({ json: !!flags.json, tui: flags.ci ? false : flags.tui, isTTY: process.stdout.isTTY === true, env: process.env });
}

// The live view's module (Ink, React), imported once: asked for early, it loads while git and the database work.
let inkModule: Promise<typeof import("../../ui/ink-renderer.js")> | null = null;
const loadInk = () => {
  inkModule ??= import("../../ui/ink-renderer.js");
  return inkModule;
};

async function createRenderer(flags: RunFlags, opts: { answersInline: boolean; onInterrupt: () => void }): Promise<Renderer> {
  const kind = rendererKind(flags);
  const write = (s: string) => void process.stdout.write(s);
  if (kind === "json") return createJsonRenderer(write);
  // Each renderer's module loads when chosen: `--json` needs neither the plain lines' formatting nor Ink.
  if (kind === "plain")
    return (await import("../../ui/plain-renderer.js")).createPlainRenderer(write, { verbose: flags.verbose, answersInline: opts.answersInline });
  const { createInkRenderer } = await loadInk();
  return createInkRenderer({ verbose: flags.verbose, answersInline: opts.answersInline, onInterrupt: opts.onInterrupt });
}

/**
 * Reads the answer to the question the plain renderer has just printed; null when the user gives none or
 * presses Ctrl+C (the thread stays waiting).
 */
async function ask(): Promise<string | null> {
  const { createInterface } = await import("node:readline/promises");
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const cancel = new AbortController();
  rl.once("SIGINT", () => cancel.abort());
  try {
    const answer = (await rl.question("Your answer (empty to stop and answer later): ", { signal: cancel.signal })).trim();
    return answer || null;
  } catch (error) {
    if (cancel.signal.aborted) return null;
    throw error;
  } finally {
    rl.close();
  }
}

import { launch, type LaunchLeg, type RunHandle, type RunResult, type ThreadProfile, type WaitingRequest } from "../../engine/api.js";
import { ConfigError } from "../../errors.js";
import type { YoloEvent } from "../../events/schema.js";
import { newThreadId } from "../../store/thread-id.js";
import type { Renderer } from "../../ui/renderer.js";
import { askOnTerminal, type HumanReply, reviewFromFlags, takeAnswer } from "../human-input.js";
import { type FirstLeg, type Prepared, prepareLaunch, type RunFlags } from "../run-prepare.js";
import { ask, createRenderer, loadInk, rendererKind } from "../run-renderer.js";
import { isUnattended, type RunSetup } from "../run-setup.js";
import { STOP_NOTES, type StopControl, stopControl } from "../stop-control.js";
import { textFromStdin } from "../stdin-text.js";
import { inCliWords } from "../wording/error-text.js";

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
  const thread = opts.last ? await (await import("../last-thread.js")).lastThreadId(input.cwd, opts) : input.thread!;
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

/**
 * Runs legs of a thread until it ends or waits; in a terminal, questions are asked inline and the run goes on. Every
 * leg says `run.started` before the engine (LangGraph, the model client, the tools) is loaded: everything that
 * refuses a run is still checked first (exit 2, nothing emitted), and the engine loads while the event is shown.
 */
async function execute(cwd: string, flags: RunFlags, first: FirstLeg): Promise<number> {
  // The live view's first frame needs Ink and React: they load while the rest of the start is prepared.
  const preloadView = () => {
    if (rendererKind(flags) === "ink") loadInk().catch(() => {});
  };
  const prepared = await prepareLaunch(cwd, flags, first, preloadView);
  const { setup, lock } = prepared;
  // --ci (or CI set) never prompts and never reads stdin, even on a terminal: a question ends the run with exit 3.
  const interactive = !flags.json && !isUnattended(flags, process.env) && process.stdin.isTTY === true && process.stdout.isTTY === true;
  const stops = stopControl();
  const views = viewHolder(flags, interactive, stops);
  try {
    return await runLegs(prepared, views, stops, interactive, flags);
  } finally {
    stops.dispose();
    await views.current?.close();
    await setup.finish();
    await prepared.close();
    lock?.release();
    // The view is gone: the last thing on the terminal says which branch the user is left on.
    if (setup.branchNote && !flags.json) process.stderr.write(`yolo: ${setup.branchNote}\n`);
  }
}

type Views = ReturnType<typeof viewHolder>;

// One renderer for every leg: the live view keeps drawing while a question is answered and the run goes on.
function viewHolder(flags: RunFlags, interactive: boolean, stops: StopControl) {
  const holder = {
    current: null as Renderer | null,
    async open(): Promise<Renderer> {
      const view = await createRenderer(flags, { answersInline: interactive, onInterrupt: () => stops.press("SIGINT") });
      stops.notify((mode) => (view.onStopRequest ? view.onStopRequest(mode) : process.stderr.write(`yolo: ${STOP_NOTES[mode]}\n`)));
      holder.current = view;
      return view;
    },
  };
  return holder;
}

// The legs of the thread, until it ends, waits with no one to answer, or is stopped: returns the exit code.
async function runLegs(prepared: Prepared, views: Views, stops: StopControl, interactive: boolean, flags: RunFlags): Promise<number> {
  const { plan, setup, answers } = prepared;
  let view = await views.open();
  let leg: LaunchLeg = prepared.leg;
  // A question answered from --answers goes on in this process as the same leg: one run.started, one run.completed.
  const prepare = answers ? (request: WaitingRequest) => takeAnswer(answers, request) : null;
  let continued = false;
  for (;;) {
    const ran = await runLeg(leg, launch(plan, leg), view, stops, setup, { prepare, continued });
    const { result, question } = ran;
    await prepared.resetNotices();
    // stdout carries only events under --json; a person reading the job log still sees why it failed.
    if (flags.json && result.exitCode !== 0) process.stderr.write(`yolo: ${result.status} (exit ${result.exitCode}): ${result.reason}\n`);
    // Prepared replies (--answers) first: they work unattended; anything without one fails closed (exit 3).
    continued = ran.prepared !== null;
    if (ran.prepared) {
      leg = { threadId: leg.threadId, resume: ran.prepared };
      continue;
    }
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
      view = await views.open();
    }
    if (reply === null) return result.exitCode;
    leg = { threadId: leg.threadId, resume: reply };
  }
}

/**
 * One leg: feeds the run's events to the renderer; returns the outcome, the agent's question it waits on, if any, and
 * the prepared reply (`--answers`) to it. With a prepared reply the waiting leg's run.completed is not shown, and the
 * leg that goes on (`continued`) shows no run.started of its own: to a reader it is one leg with one outcome.
 */
async function runLeg(
  leg: LaunchLeg,
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

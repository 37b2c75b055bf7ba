import {
  launch,
  type LaunchLeg,
  type PreparedLaunch,
  prepareLaunch,
  type RunHandle,
  type RunResult,
  type ThreadProfile,
  type WaitingRequest,
} from "../../engine/api.js";
import { ConfigError } from "../../errors.js";
import type { YoloEvent } from "../../events/schema.js";
import type { Renderer } from "../../ui/renderer.js";
import type { AnswerEntry } from "../answers-file.js";
import { askOnTerminal, type HumanReply, reviewFromFlags, takeAnswer } from "../human-input.js";
import { cliFront, type LaunchFlags as RunFlags } from "../launch-front.js";
import { type Asked, launchRequest, resumeAsked } from "../launch-request.js";
import { ask, createRenderer, loadInk, rendererKind } from "../run-renderer.js";
import { isUnattended } from "../run-setup.js";
import { STOP_NOTES, type StopControl, stopControl } from "../stop-control.js";
import { textFromStdin } from "../stdin-text.js";
import { inCliWords } from "../wording/error-text.js";

/** `yolo run <requirement>`: a new thread. */
export async function runCommand(input: { cwd: string; requirement: string; opts: RunFlags }): Promise<number> {
  const requirement = input.requirement === "-" ? await textFromStdin('yolo run "…"') : input.requirement.trim();
  if (!requirement) throw new ConfigError('The requirement is empty. Usage: yolo run "what to build"');
  return execute(input.cwd, input.opts, { kind: "new", requirement });
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
  return execute(input.cwd, opts, resumeAsked(thread, message, opts, review));
}

/** `yolo agent <id> <message>` and `yolo chat <message>`: a new thread of one agent, or of a chat. */
export async function soloCommand(input: { cwd: string; profile: Exclude<ThreadProfile, { mode: "run" }>; message: string; opts: RunFlags }): Promise<number> {
  const usage = input.profile.mode === "agent" ? `yolo agent ${input.profile.agentId} "what to do"` : 'yolo chat "your question"';
  const message = input.message === "-" ? await textFromStdin(usage.replace(/"[^"]*"$/, '"…"')) : input.message.trim();
  if (!message) throw new ConfigError(`The message is empty. Usage: ${usage}`);
  return execute(input.cwd, input.opts, { kind: "new", requirement: message, profile: input.profile });
}

/**
 * Runs legs of a thread until it ends or waits; in a terminal, questions are asked inline and the run goes on. The
 * engine prepares the request (everything that refuses it is checked first: exit 2, nothing emitted); every leg says
 * `run.started` before the engine (LangGraph, the model client, the tools) is loaded, and loads while it is shown.
 */
async function execute(cwd: string, flags: RunFlags, asked: Asked): Promise<number> {
  const request = await launchRequest(cwd, flags, asked);
  // The live view's first frame needs Ink and React: they load while the rest of the start is prepared.
  const cli = cliFront(request, () => {
    if (rendererKind(flags) === "ink") loadInk().catch(() => {});
  });
  const prepared = await prepareLaunch(request, cli.front);
  if (prepared.forked) {
    const { source, step, node } = prepared.forked;
    process.stderr.write(`yolo: thread ${request.threadId} forked from ${source} at step ${step} (after ${node}); ${source} is unchanged\n`);
  }
  // --ci (or CI set) never prompts and never reads stdin, even on a terminal: a question ends the run with exit 3.
  const interactive = !flags.json && !isUnattended(flags, process.env) && process.stdin.isTTY === true && process.stdout.isTTY === true;
  const stops = stopControl();
  const views = viewHolder(flags, interactive, stops);
  try {
    return await runLegs({ ...prepared, answers: cli.answers(), resumeArgs: cli.resumeArgs }, views, stops, interactive, flags);
  } finally {
    stops.dispose();
    await views.current?.close();
    await prepared.close();
    // The view is gone: the last thing on the terminal says which branch the user is left on.
    if (prepared.branchNote && !flags.json) process.stderr.write(`yolo: ${prepared.branchNote}\n`);
  }
}

/** A prepared launch, with what the CLI holds for its legs: the `--answers` entries and the resume command's options. */
type Prepared = PreparedLaunch & { answers: AnswerEntry[] | null; resumeArgs: string };

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
  const { plan, answers } = prepared;
  let view = await views.open();
  let leg: LaunchLeg = prepared.leg;
  // A question answered from --answers goes on in this process as the same leg: one run.started, one run.completed.
  const prepare = answers ? (request: WaitingRequest) => takeAnswer(answers, request) : null;
  let continued = false;
  for (;;) {
    const ran = await runLeg(leg, launch(plan, leg), view, stops, prepared.resumeArgs, { prepare, continued });
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
  resumeArgs: string,
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
    const result = await handle.result.catch((error: unknown) => Promise.reject(inCliWords(error, { thread: leg.threadId, resumeArgs })));
    const waiting = result.status === "waiting" && result.request && !stops.requested();
    const prepared = waiting && opts.prepare && result.request ? opts.prepare(result.request) : null;
    if (held && !prepared) renderer.onEvent(held);
    return { result, question, prepared };
  } finally {
    stops.attach(null);
  }
}

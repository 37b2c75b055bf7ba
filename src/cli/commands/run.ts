import { existsSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline/promises";
import { assertModelConfigured } from "../../config/resolve.js";
import type { ResolvedConfig } from "../../config/schema.js";
import { startRun, type RunResult } from "../../engine/run.js";
import { openSession, type Session } from "../../engine/session.js";
import { ConfigError, ThreadError } from "../../errors.js";
import { newThreadId } from "../../store/thread-id.js";
import { chooseRendererKind } from "../../ui/choose-renderer.js";
import { createJsonRenderer } from "../../ui/json-renderer.js";
import { createPlainRenderer } from "../../ui/plain-renderer.js";
import type { Renderer } from "../../ui/renderer.js";
import { exitNow } from "../main.js";
import { engineDeps, loadPipelineAgents, loadResolvedConfig, type ConfigFlags } from "../prepare.js";

interface RunFlags extends ConfigFlags {
  json?: boolean;
  tui?: boolean;
  verbose?: boolean;
  answer?: string;
}

/** `yolo run <requirement>`: a new thread. */
export async function runCommand(input: { cwd: string; requirement: string; opts: RunFlags }): Promise<number> {
  const requirement = input.requirement.trim();
  if (!requirement) throw new ConfigError('The requirement is empty. Usage: yolo run "what to build"');
  return execute(input.cwd, input.opts, { threadId: newThreadId(), start: { requirement } });
}

/** `yolo resume <thread> [--answer]`: continue from the last checkpoint. */
export async function resumeCommand(input: { cwd: string; thread: string; opts: RunFlags }): Promise<number> {
  return execute(input.cwd, input.opts, { threadId: input.thread, resume: { answer: input.opts.answer } });
}

type Leg = { threadId: string; start?: { requirement: string }; resume?: { answer?: string } };

/** Runs legs of a thread until it ends or waits; in a terminal, questions are asked inline and the run goes on. */
async function execute(cwd: string, flags: RunFlags, first: Leg): Promise<number> {
  const config = await loadResolvedConfig(cwd, flags);
  const agents = loadPipelineAgents(config);
  const logFile = join(config.stateDir, "logs", `${first.threadId}.log`);
  assertModelConfigured(config);
  if (first.resume && !existsSync(config.dbPath)) {
    throw new ThreadError(`No thread ${first.threadId}: this project has no yolo database yet (${config.dbPath}). Start a run with: yolo run "what to build"`);
  }
  // The state folder (with its .gitignore) exists before anything, the log file included, is written into it.
  const session = openSession(config);
  const deps = engineDeps(config, agents, logFile);
  const interactive = !flags.json && process.stdin.isTTY === true && process.stdout.isTTY === true && !process.env.CI;
  try {
    let leg: Leg = first;
    for (;;) {
      const result = await runLeg(leg, flags, config, session, deps, logFile);
      // stdout carries only events under --json; a person reading the job log still sees why it failed.
      if (flags.json && result.exitCode !== 0) process.stderr.write(`yolo: ${result.status} (exit ${result.exitCode}): ${result.reason}\n`);
      if (result.status !== "waiting" || !interactive || !result.question) return result.exitCode;
      const answer = await ask(result.question);
      if (answer === null) return result.exitCode;
      leg = { threadId: leg.threadId, resume: { answer } };
    }
  } finally {
    session.close();
  }
}

async function runLeg(
  leg: Leg,
  flags: RunFlags,
  config: ResolvedConfig,
  session: Session,
  deps: ReturnType<typeof engineDeps>,
  logFile: string,
): Promise<RunResult> {
  const renderer = await createRenderer(flags);
  const handle = startRun({ deps, session, threadId: leg.threadId, start: leg.start, resume: leg.resume, logFile });
  let interrupts = 0;
  const onSignal = () => {
    interrupts++;
    handle.cancel();
    // A second Ctrl+C while the checkpoint is being written: stop now; the last completed step stands.
    if (interrupts > 1) exitNow(130);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    for await (const event of handle.events) renderer.onEvent(event);
    return await handle.result;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await renderer.close();
  }
}

async function createRenderer(flags: RunFlags): Promise<Renderer> {
  const kind = chooseRendererKind({ json: !!flags.json, tui: flags.tui, isTTY: process.stdout.isTTY === true, env: process.env });
  const write = (s: string) => void process.stdout.write(s);
  if (kind === "json") return createJsonRenderer(write);
  if (kind === "plain") return createPlainRenderer(write, { verbose: flags.verbose });
  const { createInkRenderer } = await import("../../ui/ink-renderer.js");
  return createInkRenderer({ verbose: flags.verbose });
}

/** Asks the waiting question on the terminal; null when the user gives no answer (the thread stays waiting). */
async function ask(question: string): Promise<string | null> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = (await rl.question(`\n${question}\nYour answer (empty to stop and answer later): `)).trim();
    return answer || null;
  } finally {
    rl.close();
  }
}

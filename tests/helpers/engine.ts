import { join } from "node:path";
import { resolveConfig } from "../../src/config/resolve.js";
import type { UserConfig } from "../../src/config/schema.js";
import { createEngineDeps } from "../../src/engine/create-deps.js";
import { inspectThread } from "../../src/engine/inspect.js";
import type { ReviewResponse } from "../../src/engine/review.js";
import { launch } from "../../src/engine/run/launch.js";
import type { RunResult } from "../../src/engine/run/options.js";
import { loadedPlan } from "./loaded-plan.js";
import { cliRunWords } from "../../src/cli/wording/run-words.js";
import { inCliWords } from "../../src/cli/wording/error-text.js";
import { loadWorkflowAgents } from "../../src/agents/workflow-agents.js";
import { configForProfile, loadSoloAgents, readThreadProfile, type ThreadProfile } from "../../src/engine/modes.js";
import { openSession } from "../../src/engine/session.js";
import type { YoloEvent } from "../../src/events/schema.js";

export interface EngineRun {
  result: RunResult;
  events: YoloEvent[];
}

/**
 * Runs (or resumes) a thread through the real engine: real ChatOpenAI against the mock server's URL,
 * the real checkpointer (SQLite on `<root>/.yolo/yolo.db`, or PostgreSQL when `env` has YOLO_DATABASE_URL), real gate commands.
 */
export async function runEngine(opts: {
  root: string;
  baseURL: string;
  threadId: string;
  requirement?: string;
  answer?: string;
  review?: ReviewResponse;
  /** A new thread's mode (default `run`); a resumed thread's is read from its checkpoint. */
  profile?: ThreadProfile;
  /** A follow-up message for a finished agent or chat thread. */
  message?: string;
  config?: UserConfig;
  env?: NodeJS.ProcessEnv;
}): Promise<EngineRun> {
  const config = resolveConfig({
    root: opts.root,
    fileConfig: { ...opts.config, model: { maxRetries: 0, ...opts.config?.model } },
    file: null,
    env: { OPENAI_BASE_URL: opts.baseURL, PATH: process.env.PATH, ...opts.env },
  });
  const logFile = join(config.stateDir, "logs", `${opts.threadId}.log`);
  const session = await openSession(config);
  try {
    const profile = opts.requirement !== undefined ? (opts.profile ?? { mode: "run" }) : ((await readThreadProfile(session, opts.threadId)) ?? { mode: "run" });
    const threadConfig = configForProfile(config, profile);
    const agents = profile.mode === "run" ? loadWorkflowAgents(config) : loadSoloAgents(config, profile);
    const deps = createEngineDeps({ config: threadConfig, agents, logFile, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...opts.env } });
    // The CLI's words, so results and events read as `yolo run` prints them.
    const handle = launch(loadedPlan(deps, session, { logFile, words: cliRunWords() }), {
      threadId: opts.threadId,
      start: opts.requirement !== undefined ? { requirement: opts.requirement, profile } : undefined,
      resume: opts.requirement === undefined ? { answer: opts.answer, review: opts.review, message: opts.message } : undefined,
    });
    const events: YoloEvent[] = [];
    for await (const e of handle.events) events.push(e);
    // A refusal reads as the CLI says it (the engine's error carries the facts).
    const result = await handle.result.catch((error: unknown) => Promise.reject(inCliWords(error, { thread: opts.threadId })));
    return { result, events };
  } finally {
    await session.close();
  }
}

/** A thread's state as read back from its checkpoints in a fresh session. */
export async function readThread(root: string, threadId: string, fileConfig: UserConfig = {}, env: Record<string, string> = {}) {
  const config = resolveConfig({ root, fileConfig, file: null, env });
  const session = await openSession(config);
  try {
    return await inspectThread(config, session, threadId);
  } finally {
    await session.close();
  }
}

/** The node names of `node.started` events, in order. */
export function nodesStarted(events: YoloEvent[]): string[] {
  return events.flatMap((e) => (e.type === "node.started" ? [e.node] : []));
}

/** `from→to` of every route event. */
export function routes(events: YoloEvent[]): string[] {
  return events.flatMap((e) => (e.type === "route" ? [`${e.from}→${e.to}`] : []));
}

import type { ResolvedConfig } from "../../config/schema.js";
import type { EventBody, YoloEvent } from "../../events/schema.js";
import { EVENT_SCHEMA_VERSION } from "../../events/version.js";
import type { SandboxStatus } from "../../exec/sandbox.js";
import { scrubbedTokens } from "./token-scrub.js";
import { scrubValue } from "../../secrets/scrub.js";
import type { ThreadProfile } from "../modes.js";
import type { PipelineStateType } from "../../state/pipeline.js";

// Light (no LangGraph): what both the engine's run and the CLI's early start need to say a run started.

/** The `run.started` event of a leg, from the facts it states. */
export function startedEvent(facts: {
  requirement: string;
  config: ResolvedConfig;
  resumed: boolean;
  logFile: string;
  mode: ThreadProfile["mode"];
  sandbox?: SandboxStatus;
  message?: string;
  /** The thread's state so far, when it has one (a resumed thread). */
  values?: PipelineStateType;
}): Extract<EventBody, { type: "run.started" }> {
  const { config, values } = facts;
  return {
    type: "run.started",
    requirement: facts.requirement,
    model: config.model.name,
    resumed: facts.resumed,
    nodes: Object.keys(config.workflow.nodes),
    logFile: facts.logFile,
    maxFixAttempts: config.maxFixAttempts,
    price: config.model.price,
    mode: facts.mode,
    ...(facts.sandbox ? { sandbox: facts.sandbox } : {}),
    ...(facts.message !== undefined ? { message: facts.message } : {}),
    ...(values ? { ran: Object.keys(values.visits ?? {}), usageSoFar: values.usage } : {}),
  };
}

/** The emitter of a thread's events: versioned, stamped and scrubbed of every registered secret. */
export function eventEmitter(push: (event: YoloEvent) => void, threadId: string): (body: EventBody) => void {
  // Each agent's tokens are scrubbed as one stream (a secret split over two tokens too), then every event whole.
  return scrubbedTokens((body) => push(scrubValue({ ...body, v: EVENT_SCHEMA_VERSION, thread: threadId, ts: new Date().toISOString() }) as YoloEvent));
}

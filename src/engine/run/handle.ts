import type { YoloEvent } from "../../events/schema.js";
import { EventChannel } from "../event-channel.js";
import type { RunHandle, RunResult } from "./options.js";
import { eventEmitter } from "./started.js";

/** What stops a run at the next superstep boundary, after its checkpoint (LangGraph's RunControl). */
export interface Drainable {
  requestDrain(reason: string): void;
}

/** Hands a leg its RunControl once it exists, replaying a stop asked for before (see runLeg). */
export type AttachDrain = <T extends Drainable>(made: T) => T;

/**
 * What every way of starting a leg shares: the event channel and the emitter into it, the abort signal, and the
 * handle commands hold. A stop asked for before the leg's RunControl exists (the early paths load LangGraph only
 * after `run.started`, and a Ctrl+C can come first) is passed on when `attach` is given one. Light: no LangGraph.
 */
export function runLeg(threadId: string) {
  const channel = new EventChannel<YoloEvent>();
  const controller = new AbortController();
  let drain: Drainable | null = null;
  let drainRequested = false;
  const attach: AttachDrain = (made) => {
    drain = made;
    if (drainRequested) made.requestDrain("stop requested");
    return made;
  };
  return {
    emit: eventEmitter((event) => channel.push(event), threadId),
    signal: controller.signal,
    attach,
    /** The handle of the leg whose result this is; the event stream ends when it settles. */
    handle(result: Promise<RunResult>): RunHandle {
      return {
        threadId,
        events: channel,
        result: result.finally(() => channel.close()),
        cancel: () => controller.abort(),
        stopAfterStep: () => {
          drainRequested = true;
          drain?.requestDrain("stop requested");
        },
      };
    },
  };
}

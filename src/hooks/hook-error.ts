import { YoloError } from "../errors.js";

/**
 * A hook stopped the run: `continue: false`, a NodeStart block, or a fail-closed hook that failed around a step.
 * The run ends like a stop request (resumable); the step it guarded runs again, hooks included, on resume.
 */
export class HookStopError extends YoloError {
  constructor(message: string) {
    super("hook", message);
  }
}

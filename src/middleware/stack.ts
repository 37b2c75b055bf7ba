import { contextLoader } from "./context-loader.js";
import { summarization } from "./summarization.js";
import { toolSelector } from "./tool-selector.js";
import type { Middleware, MiddlewareInput, MiddlewareState } from "./types.js";
import { workflowRouter } from "./workflow-router.js";

/**
 * The middleware run before an agent's model call, in this order: each step reads what the earlier ones wrote
 * (the router composes from the loaded context, the selector narrows the router's tool policy, summarization
 * measures the final transcript).
 */
export const MIDDLEWARE: readonly { name: string; step: Middleware }[] = Object.freeze([
  { name: "context-loader", step: (s: MiddlewareState) => contextLoader(s) },
  { name: "workflow-router", step: workflowRouter },
  { name: "tool-selector", step: toolSelector },
  { name: "summarization", step: summarization },
]);

/** Runs the whole stack over the input. */
export function runMiddleware(input: MiddlewareInput, steps: readonly { step: Middleware }[] = MIDDLEWARE): MiddlewareState {
  return steps.reduce<MiddlewareState>((state, { step }) => step(state), { ...input, warnings: [] });
}

import { Command } from "@langchain/langgraph";
import type { RunStatus } from "../../events/outcome.js";
import type { ThreadPosition } from "../position.js";
import { decideInput, type InputDecision } from "./input-decision.js";
import type { RunOptions } from "./options.js";

export { waitingReason } from "./input-decision.js";

export type PreparedInput = { value: unknown; done?: undefined } | { value?: undefined; done: { status: RunStatus; reason: string } };

/** Decides the graph input (input-decision.ts), or that there is nothing to run. Refuses what cannot be meant. */
export async function prepareInput(
  options: Pick<RunOptions, "threadId" | "start" | "resume" | "session" | "deps">,
  position: ThreadPosition,
): Promise<PreparedInput> {
  return inputOf(await decideInput({ ...options, threads: options.session.threads }, position));
}

/** The graph input of a decision: a reply resumes the interrupt it answers through LangGraph's Command. */
export function inputOf(decision: InputDecision): PreparedInput {
  if (decision.done) return { done: decision.done };
  if ("reply" in decision && decision.reply !== undefined) return { value: new Command({ resume: decision.reply }) };
  return { value: decision.value };
}

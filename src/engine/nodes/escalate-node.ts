import { interrupt } from "@langchain/langgraph";
import { rolesThat } from "../../roles/catalog.js";
import type { PipelineStateType, PipelineUpdate } from "../../state/pipeline.js";

/** The question a paused thread is waiting on; the payload of its LangGraph interrupt. */
export interface EscalationPayload {
  kind: "question";
  question: string;
  askedBy: string;
}

// Every agent names itself when it asks; a checkpoint that names no asker credits the role that asks first.
const DEFAULT_ASKER: string = rolesThat("asksHuman")[0];

/**
 * Pauses the run on the agent's question. `interrupt()` comes first and nothing else happens before it,
 * because LangGraph re-runs this node from the top when the answer arrives.
 */
export async function escalateNode(state: PipelineStateType): Promise<PipelineUpdate> {
  const askedBy = state.askedBy ?? DEFAULT_ASKER;
  const question = state.question ?? "";
  const answer = interrupt<EscalationPayload, unknown>({ kind: "question", question, askedBy });
  return {
    escalateToHuman: false,
    question: null,
    answers: [{ node: askedBy, question, answer: typeof answer === "string" ? answer : JSON.stringify(answer) }],
  };
}

/**
 * The models OpenAI serves as reasoning models (o1, o3, o4-mini…, the gpt-5 family but gpt-5-chat): no temperature,
 * `max_completion_tokens`, `reasoning_effort`. The same rule @langchain/openai 1.5.8 applies (utils/misc.js), which
 * it does not export; kept equal so what yolo drops and what the client converts agree.
 */
export function isReasoningModel(model: string): boolean {
  if (/^o\d/.test(model)) return true;
  return model.startsWith("gpt-5") && !model.startsWith("gpt-5-chat");
}

/** The values OpenAI accepts for `reasoning_effort`. */
export const REASONING_EFFORTS = ["minimal", "low", "medium", "high"] as const;

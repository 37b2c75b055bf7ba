/** What one tiny request naming the model said: refused as unknown, answered, or nothing certain. */
export type ServedAnswer = { kind: "refused"; status: number; detail: string } | { kind: "answered" } | { kind: "undecided"; reason: string };

// A 400 that names the model as unknown (LiteLLM's "Invalid model name", vLLM's "The model `x` does not exist"), not
// one that refuses a parameter for it ("'max_tokens' is not supported with this model").
const UNKNOWN_MODEL =
  /\b(?:model|deployment)\b[^.\n]{0,80}\b(?:not found|does not exist|doesn't exist|is not served|unknown)\b|\b(?:invalid|unknown|no such) (?:model|deployment)\b|DeploymentNotFound|model_not_found/i;

/**
 * The first real call, made early: one request naming the model with the smallest answer it allows, when `GET /models`
 * did not list it (Azure deployment names, LiteLLM wildcard routes and router aliases are served but not listed). A
 * 404, or an error that says the model is unknown, refuses it; any answer, or any other failure (a parameter the model
 * refuses, a slow server), leaves it to the run's own calls.
 */
export async function askModelServed(
  opts: { base: string; apiKey: string | null; model: string; api?: "chat" | "responses"; timeoutMs: number },
  fetchImpl: typeof fetch = globalThis.fetch,
): Promise<ServedAnswer> {
  const responses = opts.api === "responses";
  const body = responses
    ? { model: opts.model, input: "Reply with OK.", max_output_tokens: 16 }
    : { model: opts.model, messages: [{ role: "user", content: "Reply with OK." }], max_tokens: 1 };
  let response: Response;
  try {
    response = await fetchImpl(`${opts.base.replace(/\/+$/, "")}/${responses ? "responses" : "chat/completions"}`, {
      method: "POST",
      headers: { authorization: `Bearer ${opts.apiKey ?? "not-needed"}`, "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
  } catch (error) {
    return { kind: "undecided", reason: (error as Error).message ?? String(error) };
  }
  const text = (await response.text().catch(() => "")).slice(0, 2000);
  if (response.ok) return { kind: "answered" };
  const detail = errorMessage(text);
  if (response.status === 404 || (response.status === 400 && UNKNOWN_MODEL.test(text))) return { kind: "refused", status: response.status, detail };
  return { kind: "undecided", reason: `HTTP ${response.status}${detail ? `: ${detail}` : ""}` };
}

// The provider's own words from an OpenAI-style error body, else the body's start.
function errorMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof parsed.error === "string" ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof message === "string") return message.slice(0, 300);
  } catch {
    // not JSON
  }
  return text.trim().slice(0, 300);
}

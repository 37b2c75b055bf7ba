/** The `error.code` of the answer that stands in for a reply that is not a chat completion (see errors.ts). */
export const NOT_A_COMPLETION = "not_a_completion";

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * A proxy's login page, an HTML error page or a half-written body answered with HTTP 200 makes the client fail deep
 * inside LangChain (`TypeError: Cannot read properties of undefined`), which reads as a bug in yolo. This checks a
 * successful answer is what was asked for — JSON with `choices` (or a Responses API `output`) for a plain request,
 * not HTML for a streamed one — and otherwise answers a 502 naming what came back, which the error mapping words
 * as a provider error (exit 5). The 502 is marked not to be retried: the same server will answer the same way.
 */
export function completionGuard(inner: Fetch): Fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (!response.ok || !isModelCall(input)) return response;
    const type = response.headers.get("content-type") ?? "";
    const streamed = requestsStream(init?.body);
    if (streamed) return /text\/html/i.test(type) ? notACompletion(type, await response.text()) : response;
    const text = await response.text();
    if (!looksLikeCompletion(text)) return notACompletion(type, text);
    return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

// Chat completions and the Responses API; `/models` and anything else pass untouched.
function isModelCall(input: string | URL | Request): boolean {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  return /\/(chat\/completions|responses)(?:\?|$)/.test(url);
}

function requestsStream(body: unknown): boolean {
  if (typeof body !== "string") return false;
  try {
    return (JSON.parse(body) as { stream?: unknown })?.stream === true;
  } catch {
    return false;
  }
}

function looksLikeCompletion(text: string): boolean {
  try {
    const value = JSON.parse(text) as { choices?: unknown; output?: unknown } | null;
    return typeof value === "object" && value !== null && (Array.isArray(value.choices) || Array.isArray(value.output));
  } catch {
    return false;
  }
}

function notACompletion(contentType: string, body: string): Response {
  const shown = body.replace(/\s+/g, " ").trim().slice(0, 160);
  const message = `the server answered HTTP 200 with a body that is not a model reply (${contentType || "no content type"}${shown ? `: ${shown}` : ", empty"})`;
  return new Response(JSON.stringify({ error: { message, type: "invalid_response", param: null, code: NOT_A_COMPLETION } }), {
    status: 502,
    headers: { "content-type": "application/json", "x-should-retry": "false" },
  });
}

import type { ResolvedConfig } from "../config/schema.js";
import { probeModels } from "./doctor.js";
import { toProviderError } from "./errors.js";
import { askModelServed } from "./model-served.js";

const OPENAI = "https://api.openai.com/v1";
/** Long enough for a slow local server's list, short enough that a dead URL is said in seconds. */
const PROBE_TIMEOUT_MS = 10_000;

/**
 * One GET /models before something expensive that no model call overlaps (a gate baseline a writing agent waits
 * for): a dead URL or a rejected key throws the ProviderError a model call would have, so the run ends with the same
 * message in seconds. The list is advice: a model it does not name is asked for directly (askModelServed), and only a
 * 404 or "model not found" there refuses it, naming a few listed ones; otherwise the run goes on, and the returned
 * warning says the list left it out. A server without the route (404), or one listing no model, passes. null: nothing to say.
 */
export async function checkModelEndpoint(model: ResolvedConfig["model"], signal?: AbortSignal): Promise<string | null> {
  const base = model.baseURL ?? OPENAI;
  const context = { apiKeyEnv: model.apiKeyEnv, baseURL: model.baseURL, model: model.name };
  const fetchWithSignal: typeof fetch = (input, init) => fetch(input, { ...init, signal: signal ? AbortSignal.any([signal, init!.signal!]) : init?.signal });
  const listed = await probeModels(base, model.apiKey, PROBE_TIMEOUT_MS, fetchWithSignal);
  if (signal?.aborted) return null;
  // A server slow to list its models may still answer chat: only a refused connection (or a bad port) is certain.
  if (listed.kind === "unreachable" && (listed.badPort || /^E[A-Z_]+$/.test(listed.reason))) {
    const code = listed.badPort ? "ERR_UNSAFE_PORT" : listed.reason;
    const cause = Object.assign(new Error(listed.reason), { code });
    throw toProviderError(Object.assign(new Error("Connection error."), { cause }), context) ?? cause;
  }
  if (listed.kind === "status" && (listed.status === 401 || listed.status === 403)) {
    throw toProviderError({ status: listed.status, message: `HTTP ${listed.status}` }, context);
  }
  if (listed.kind !== "list" || listed.ids.length === 0 || listed.ids.some((id) => servesModel(id, model.name))) return null;
  const shown = `${listed.ids.slice(0, 5).join(", ")}${listed.ids.length > 5 ? ", …" : ""}`;
  const lists = `GET /models lists ${listed.ids.length} model${listed.ids.length === 1 ? "" : "s"}, not "${model.name}": ${shown}`;
  const asked = { base, apiKey: model.apiKey, model: model.name, api: model.api, timeoutMs: PROBE_TIMEOUT_MS };
  const answer = await askModelServed(asked, fetchWithSignal);
  if (answer.kind === "refused")
    throw toProviderError({ status: 404, message: `${lists}; a request naming it was refused (HTTP ${answer.status}: ${answer.detail})` }, context);
  if (signal?.aborted) return null;
  return answer.kind === "answered"
    ? `${lists}. A request naming "${model.name}" was answered, so the run goes on (deployment names, wildcard routes and aliases are served without being listed).`
    : `${lists}. Whether it is served is decided by the first model call (a request naming it got no certain answer: ${answer.reason}).`;
}

/** A listed id names the configured model: exactly, or as Ollama lists a name given without its tag (`x:latest`). */
function servesModel(id: string, name: string): boolean {
  return id === name || id === `${name}:latest`;
}

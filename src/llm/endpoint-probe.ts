import type { ResolvedConfig } from "../config/schema.js";
import { probeModels } from "./doctor.js";
import { toProviderError } from "./errors.js";

const OPENAI = "https://api.openai.com/v1";
/** Long enough for a slow local server's list, short enough that a dead URL is said in seconds. */
const PROBE_TIMEOUT_MS = 10_000;

/**
 * One GET /models before something expensive that no model call overlaps (a gate baseline a writing agent waits
 * for): a dead URL or a rejected key throws the ProviderError a model call would have, so the run ends with the same
 * message in seconds. A model missing from a non-empty list is refused the same way, naming a few listed ones. A
 * server without the route (404), or one listing no model, passes: the first model call says what is wrong.
 */
export async function checkModelEndpoint(model: ResolvedConfig["model"], signal?: AbortSignal): Promise<void> {
  const base = model.baseURL ?? OPENAI;
  const context = { apiKeyEnv: model.apiKeyEnv, baseURL: model.baseURL, model: model.name };
  const fetchWithSignal: typeof fetch = (input, init) => fetch(input, { ...init, signal: signal ? AbortSignal.any([signal, init!.signal!]) : init?.signal });
  const listed = await probeModels(base, model.apiKey, PROBE_TIMEOUT_MS, fetchWithSignal);
  if (signal?.aborted) return;
  // A server slow to list its models may still answer chat: only a refused connection (or a bad port) is certain.
  if (listed.kind === "unreachable" && (listed.badPort || /^E[A-Z_]+$/.test(listed.reason))) {
    const code = listed.badPort ? "ERR_UNSAFE_PORT" : listed.reason;
    const cause = Object.assign(new Error(listed.reason), { code });
    throw toProviderError(Object.assign(new Error("Connection error."), { cause }), context) ?? cause;
  }
  if (listed.kind === "status" && (listed.status === 401 || listed.status === 403)) {
    throw toProviderError({ status: listed.status, message: `HTTP ${listed.status}` }, context);
  }
  if (listed.kind === "list" && listed.ids.length > 0 && !listed.ids.some((id) => servesModel(id, model.name))) {
    const shown = `${listed.ids.slice(0, 5).join(", ")}${listed.ids.length > 5 ? ", …" : ""}`;
    const message = `GET /models lists ${listed.ids.length} model${listed.ids.length === 1 ? "" : "s"}, not "${model.name}": ${shown}`;
    throw toProviderError({ status: 404, message }, context);
  }
}

/** A listed id names the configured model: exactly, or as Ollama lists a name given without its tag (`x:latest`). */
function servesModel(id: string, name: string): boolean {
  return id === name || id === `${name}:latest`;
}

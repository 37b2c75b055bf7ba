import type { ResolvedConfig } from "../config/schema.js";
import { probeModels } from "./doctor.js";
import { toProviderError } from "./errors.js";

const OPENAI = "https://api.openai.com/v1";
/** Long enough for a slow local server's list, short enough that a dead URL is said in seconds. */
const PROBE_TIMEOUT_MS = 10_000;

/**
 * One GET /models before something expensive that no model call overlaps (a gate baseline a writing agent waits
 * for): a dead URL or a rejected key throws the ProviderError a model call would have, so the run ends with the same
 * message in seconds. A server without the route (404) passes, and so does a model it does not list (servers and
 * proxies accept names and aliases they do not list; the first model call says a model that is truly unknown).
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
}

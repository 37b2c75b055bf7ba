/** Reading the cause chains of fetch and the openai SDK (`Connection error.` → `fetch failed` → the system error). */

/** The system error code (ECONNREFUSED, ENOTFOUND, …) buried in fetch's cause chain. */
export function causeCode(err: unknown): string | undefined {
  let cur: unknown = err;
  for (let depth = 0; depth < 5 && typeof cur === "object" && cur !== null; depth++) {
    const c = cur as { code?: unknown; cause?: unknown; errors?: unknown };
    if (depth > 0 && typeof c.code === "string") return c.code;
    // AggregateError (IPv4 and IPv6 both refused) keeps its codes in `errors`.
    if (Array.isArray(c.errors) && typeof c.errors[0]?.code === "string") return c.errors[0].code;
    cur = c.cause;
  }
  return undefined;
}

/** fetch refuses ports browsers block (6000, 6667, …) with a bare "bad port"; Node's http says ERR_UNSAFE_PORT. */
export function isBadPort(error: unknown): boolean {
  let cur: unknown = error;
  for (let depth = 0; depth < 6 && typeof cur === "object" && cur !== null; depth++) {
    const c = cur as { code?: unknown; message?: unknown; cause?: unknown };
    if (c.code === "ERR_UNSAFE_PORT" || c.message === "bad port") return true;
    cur = c.cause;
  }
  return false;
}

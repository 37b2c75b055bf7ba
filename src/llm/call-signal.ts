/**
 * A signal for one model call that aborts when `parent` does. The OpenAI client adds an 'abort' listener to the
 * signal of every request it sends and never removes it, so passing a node's long-lived signal to each call piles
 * up listeners (Node's MaxListenersExceededWarning after ten calls, and a leak on long runs). Each call gets its
 * own child signal instead; `dispose` removes the one listener the child put on `parent`.
 */
export function callSignal(parent: AbortSignal | undefined): { signal: AbortSignal | undefined; dispose(): void } {
  if (!parent) return { signal: undefined, dispose() {} };
  const child = new AbortController();
  if (parent.aborted) {
    child.abort(parent.reason);
    return { signal: child.signal, dispose() {} };
  }
  const forward = () => child.abort(parent.reason);
  parent.addEventListener("abort", forward, { once: true });
  return { signal: child.signal, dispose: () => parent.removeEventListener("abort", forward) };
}

/** Runs `call` with a child of `parent` (see callSignal) and releases it when the call settles. */
export async function withCallSignal<T>(parent: AbortSignal | undefined, call: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
  const scoped = callSignal(parent);
  try {
    return await call(scoped.signal);
  } finally {
    scoped.dispose();
  }
}

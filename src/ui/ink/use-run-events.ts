import { useEffect, useState } from "react";
import type { YoloEvent } from "../../events/schema.js";
import type { EventSource } from "../event-source.js";
import { createTranscript, type Transcript } from "../transcript.js";
import { initialViewState, reduce, type ViewState } from "../view-state.js";

// Events are applied to React state in batches at most this often: Ink draws at most 30 frames a second, and each
// batch costs a React commit and a layout even when Ink skips drawing it (docs/performance.md, figures behind choices).
const FLUSH_MS = 33;
// A batch of streamed text alone waits longer: a frame costs Ink several milliseconds whatever changed, and text
// read as it streams reads as well at 15 frames a second. Any other event still shows within FLUSH_MS.
const TOKEN_FLUSH_MS = 66;

export type LogLine = { key: number; text: string };

// The view state and verbose scrollback for a history of events.
function replay(events: YoloEvent[], verbose: boolean) {
  const transcript = createTranscript();
  const log: LogLine[] = [];
  let state = initialViewState;
  for (const e of events) {
    state = reduce(state, e);
    if (verbose) for (const text of transcript.push(e)) log.push({ key: log.length, text });
  }
  return { state, transcript, log };
}

/**
 * The view state of a run's events, coalesced into one update per FLUSH_MS (TOKEN_FLUSH_MS for text alone) so a token flood does not cost a
 * render per token; with `verbose`, also the scrollback lines. `stopped` turns true once `stopSignal` aborts
 * and everything pending has been applied. Events pushed before the view subscribed are read from the
 * source's history, so none is lost.
 */
export function useRunEvents(events: EventSource, verbose: boolean, stopSignal?: AbortSignal) {
  const [initial] = useState(() => {
    const history = events.snapshot();
    return { ...replay(history, verbose), length: history.length, last: history[history.length - 1] };
  });
  const [state, setState] = useState<ViewState>(initial.state);
  const [log, setLog] = useState<LogLine[]>(initial.log);
  const [stopped, setStopped] = useState(false);

  useEffect(() => {
    let transcript: Transcript = initial.transcript;
    let pending: YoloEvent[] = [];
    let timer: ReturnType<typeof setTimeout> | null = null;
    let due = 0;
    const flush = () => {
      if (timer) clearTimeout(timer);
      timer = null;
      const batch = pending;
      pending = [];
      if (!batch.length) return;
      setState((s) => batch.reduce(reduce, s));
      if (verbose) {
        const lines = batch.flatMap((e) => transcript.push(e));
        if (lines.length) setLog((l) => [...l, ...lines.map((text, i) => ({ key: l.length + i, text }))]);
      }
    };
    // Events that arrived between the first render and this effect.
    const history = events.snapshot();
    if (history.length !== initial.length || history[history.length - 1] !== initial.last) {
      const again = replay(history, verbose);
      transcript = again.transcript;
      setState(again.state);
      setLog(again.log);
    }
    const unsubscribe = events.subscribe((e) => {
      pending.push(e);
      const wait = e.type === "token" ? TOKEN_FLUSH_MS : FLUSH_MS;
      const at = performance.now() + wait;
      if (timer && due <= at) return;
      if (timer) clearTimeout(timer);
      due = at;
      timer = setTimeout(flush, wait);
    });
    const onStop = () => {
      flush();
      setStopped(true);
    };
    if (stopSignal?.aborted) onStop();
    else stopSignal?.addEventListener("abort", onStop, { once: true });
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
      stopSignal?.removeEventListener("abort", onStop);
    };
  }, [events, stopSignal, initial, verbose]);

  return { state, log, stopped };
}

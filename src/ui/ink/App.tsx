import { Box, Text, useApp } from "ink";
import { useEffect, useState } from "react";
import type { YoloEvent } from "../../events/schema.js";
import type { EventSource } from "../event-source.js";
import { formatDuration } from "../format.js";
import { initialViewState, reduce, streamLines, type ViewState } from "../view-state.js";
import { AgentRow } from "./AgentRow.js";
import { FinalSummary } from "./FinalSummary.js";
import { GateList } from "./GateList.js";
import { Header } from "./Header.js";
import { Question } from "./Question.js";
import { ToolLog } from "./ToolLog.js";

export interface AppProps {
  events: EventSource;
  verbose?: boolean;
  /** Columns to lay out in; defaults to the terminal's width. */
  width?: number;
  /** Aborted when the renderer closes: flush what is pending, draw the last frame, exit. */
  stopSignal?: AbortSignal;
}

// Events are applied to React state in batches at most this often, so a token flood renders ~60×/s.
const FLUSH_MS = 16;
const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const SPINNER_MS = 120;

// The state for a history of events.
function replay(events: YoloEvent[]): ViewState {
  return events.reduce(reduce, initialViewState);
}

/** The compact live view of one run; exits by itself once the run has completed. */
export function App({ events, verbose = false, width, stopSignal }: AppProps) {
  const { exit } = useApp();
  const [initial] = useState(() => {
    const history = events.snapshot();
    return { state: replay(history), length: history.length, last: history[history.length - 1] };
  });
  const [state, setState] = useState<ViewState>(initial.state);
  const [stopped, setStopped] = useState(false);
  const [tick, setTick] = useState(0);

  // Subscribe and read any events that arrived since the first render in the same tick, so none is lost.
  useEffect(() => {
    let pending: YoloEvent[] = [];
    let timer: ReturnType<typeof setTimeout> | null = null;
    const flush = () => {
      if (timer) clearTimeout(timer);
      timer = null;
      const batch = pending;
      pending = [];
      if (batch.length) setState((s) => batch.reduce(reduce, s));
    };
    const history = events.snapshot();
    if (history.length !== initial.length || history[history.length - 1] !== initial.last) {
      setState(replay(history));
    }
    const unsubscribe = events.subscribe((e) => {
      pending.push(e);
      timer ??= setTimeout(flush, FLUSH_MS);
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
  }, [events, stopSignal, initial]);

  const finished = state.final !== null || stopped;

  // Exiting here, after the final state has rendered, keeps the last frame on screen.
  useEffect(() => {
    if (finished) exit();
  }, [finished, exit]);

  useEffect(() => {
    if (finished) return;
    const timer = setInterval(() => setTick((n) => n + 1), SPINNER_MS);
    return () => clearInterval(timer);
  }, [finished]);

  const now = Date.now();
  const elapsed =
    state.startedAt === null ? "" : formatDuration((state.endedAt ?? now) - state.startedAt);
  const live = streamLines(state);
  const question = state.question;
  const showQuestion = question !== null && (state.final === null || state.final.status === "waiting");

  return (
    <Box flexDirection="column" width={width}>
      <Header state={state} now={now} />
      <Box flexDirection="column" marginTop={1}>
        {state.agents.map((a) => (
          <AgentRow
            key={a.id}
            agent={a}
            spinner={SPINNER[tick % SPINNER.length]}
            stream={a.id === state.running ? live : undefined}
            verbose={verbose}
          />
        ))}
      </Box>
      <ToolLog tools={state.tools} />
      <GateList gates={state.gates} />
      {state.notices.length ? (
        <Box flexDirection="column" marginTop={1}>
          {state.notices.map((n, i) => (
            <Text key={i} wrap="truncate-end" color={n.level === "error" ? "red" : "yellow"}>
              {n.level === "error" ? "✗ error " : "! "}
              {n.text}
            </Text>
          ))}
        </Box>
      ) : null}
      {showQuestion ? <Question question={question} /> : null}
      {state.final ? (
        <FinalSummary
          final={state.final}
          elapsed={elapsed}
          showResume={!(showQuestion && question.resumeCommand === state.final.resumeCommand)}
        />
      ) : null}
    </Box>
  );
}

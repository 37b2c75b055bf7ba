import { Box, Text, useApp, useInput, useStdin, useStdout } from "ink";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import type { EventSource } from "../event-source.js";
import { formatDuration, wrapKeepingIndent } from "../format.js";
import { editLine } from "../line-edit.js";
import type { StopMode } from "../renderer.js";
import { storiesSummary, streamLines, type FinalView, type StoryView, type ViewState } from "../view-state.js";
import { AgentRow } from "./AgentRow.js";
import { FinalSummary } from "./FinalSummary.js";
import { GateList } from "./GateList.js";
import { Header } from "./Header.js";
import { frameHeight, nestedLines, storyRows } from "./layout.js";
import { Question, type AnswerState } from "./Question.js";
import { StoryRow } from "./StoryRow.js";
import { type LogLine, useRunEvents } from "./use-run-events.js";

export interface AppProps {
  events: EventSource;
  /** Every streamed token goes to the scrollback above the live view. */
  verbose?: boolean;
  /** Columns to lay out in; defaults to the terminal's width. */
  width?: number;
  /** Rows the live view must stay under; defaults to the terminal's height. */
  rows?: number;
  /** Aborted when the renderer closes: flush what is pending, draw the last frame, exit. */
  stopSignal?: AbortSignal;
  /** The CLI asks a waiting question here: show an input instead of the command that answers it later. */
  answersInline?: boolean;
  /** The inline answer, or null when the user leaves the question for later. */
  onAnswer?(answer: string | null): void;
  /** Ctrl+C typed into the view (the terminal sends no SIGINT while the view reads keys). */
  onInterrupt?(): void;
  /** The user asked the run to stop; shown until it has. */
  stopping?: StopMode | null;
}

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const SPINNER_MS = 120;
// Under the running agent: its latest text lines and tool calls (fewer when the terminal is short).
const STREAM_SHOWN = 3;
const TOOLS_SHOWN = 4;
// Columns for a story's id; longer ids are cut (the title and tool call need the room).
const STORY_ID_WIDTH = 12;

/** The live view of a run: it keeps drawing across the legs of one thread until the renderer closes. */
export function App(props: AppProps) {
  const { events, verbose = false, stopSignal, answersInline = false, onAnswer, onInterrupt, stopping = null } = props;
  const { exit } = useApp();
  const { stdout } = useStdout();
  const { state, log, stopped } = useRunEvents(events, verbose, stopSignal);
  useVerboseScrollback(verbose, log);

  // Exiting here, after the final state has rendered, keeps the last frame on screen.
  useEffect(() => {
    if (stopped) exit();
  }, [stopped, exit]);
  useSpinnerTicks(state.final === null && !stopped);

  const { question, waiting, answer, inline, draft } = useInlineAnswer(state, stopped, { answersInline, onAnswer, onInterrupt });

  const now = Date.now();
  const elapsed = state.startedAt === null ? "" : formatDuration((state.endedAt ?? now) - state.startedAt);
  const columns = props.width ?? stdout.columns ?? 80;
  const showQuestion = question !== null && (state.final === null || state.final.status === "waiting");
  const showFinal = state.final !== null && !(waiting && inline && answer.kind !== "declined");
  const showStopping = stopping !== null && state.final === null;
  // The error that ended the run is the final summary's reason, shown whole there: not twice, cut short, here.
  const notices = showFinal ? state.notices.filter((n) => !(n.level === "error" && n.text.endsWith(state.final!.reason))) : state.notices;

  const height = frameHeight(state, { showQuestion, showFinal, showStopping, inputOpen: inline && answer.kind === "open", columns });
  const runningTools = state.tools.filter((t) => t.node === state.running);
  const fit = nestedLines(props.rows ?? stdout.rows, height, {
    tools: Math.min(runningTools.length, TOOLS_SHOWN),
    stream: verbose ? 1 : STREAM_SHOWN,
  });
  const stream = streamLines(state, fit.stream);
  const tools = fit.tools > 0 ? runningTools.slice(-fit.tools) : [];

  if (stopped && !state.thread) return null;
  return (
    <Box flexDirection="column" width={props.width}>
      <Header state={state} now={now} />
      <AgentList state={state} stream={stream} tools={tools} verbose={verbose} />
      <GateList gates={state.gates} />
      <NoticeList notices={notices} />
      {showStopping ? (
        <Box marginTop={1}>
          <Text wrap="truncate-end" color="yellow">
            {stopping === "after-step" ? `■ stopping after ${state.running ?? "the current step"} finishes · Ctrl+C again to stop now` : "■ stopping now…"}
          </Text>
        </Box>
      ) : null}
      {showQuestion ? <Question question={question} inline={inline} answer={answer} draft={draft} /> : null}
      {showFinal ? (
        <FinalSummary
          final={state.final!}
          elapsed={elapsed}
          width={columns}
          mode={state.mode}
          showResume={!(showQuestion && !inline && question.resumeCommand === state.final!.resumeCommand)}
        />
      ) : null}
    </Box>
  );
}

// --verbose: completed lines go to the scrollback above the live view as they come. Written through Ink (it lifts
// the frame, writes them, puts the frame back) rather than through <Static>, which costs a second commit and two
// full frames for every batch of lines. In the commit's layout phase, so the frame Ink has just drawn and the
// lines go out as one write.
function useVerboseScrollback(verbose: boolean, log: LogLine[]): void {
  const { stdout, write } = useStdout();
  const printed = useRef(0);
  useLayoutEffect(() => {
    if (!verbose || log.length <= printed.current) return;
    const fresh = log.slice(printed.current);
    printed.current = log.length;
    const width = Math.max(20, stdout.columns || 80);
    const dim = stdout.hasColors?.() === true;
    const lines = fresh.flatMap((l) => wrapKeepingIndent(l.text, width).map((t) => (dim && l.text.startsWith("  ") ? `\x1b[2m${t}\x1b[22m` : t)));
    write(`${lines.join("\n")}\n`);
  }, [verbose, log, write, stdout]);
}

// Redraws for the spinner while the run is live, unless the view committed recently anyway.
function useSpinnerTicks(live: boolean): void {
  const [, setTick] = useState(0);
  // When the view last committed: under a stream of events it redraws anyway, and the spinner needs no commit of its own.
  const drawnAt = useRef(0);
  useEffect(() => {
    drawnAt.current = performance.now();
  });
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => {
      if (performance.now() - drawnAt.current >= SPINNER_MS / 2) setTick((n) => n + 1);
    }, SPINNER_MS);
    return () => clearInterval(timer);
  }, [live]);
}

// The question a waiting run asks and the answer typed into the view: whether the input is shown, what is typed,
// and the one key handler (Ctrl+C included) for the view's whole life.
function useInlineAnswer(state: ViewState, stopped: boolean, opts: { answersInline: boolean; onAnswer?(answer: string | null): void; onInterrupt?(): void }) {
  const { isRawModeSupported } = useStdin();
  const canType = isRawModeSupported === true;
  // The answer given to one waiting end of a leg; a new leg (another `final`) starts with the input open.
  const [answerFor, setAnswerFor] = useState<{ final: FinalView | null; answer: AnswerState }>({ final: null, answer: { kind: "open" } });
  // The line being typed lives in a ref (keys can arrive faster than renders); the state redraws it.
  const draft = useRef("");
  const [draftShown, setDraftShown] = useState("");

  const question = state.question;
  const waiting = state.final?.status === "waiting" && question !== null;
  let answer: AnswerState = answerFor.final === state.final ? answerFor.answer : { kind: "open" };
  if (stopped && answer.kind === "open") answer = { kind: "declined" };
  const inline = opts.answersInline && canType && answer.kind !== "declined" && question?.kind !== "approval";
  const asking = inline && waiting && answer.kind === "open";

  // Read by the key handler, which may run before the effect that would hand it a fresh closure.
  const current = useRef({ asking, final: state.final });
  current.current = { asking, final: state.final };
  const setDraft = (value: string) => {
    draft.current = value;
    setDraftShown(value);
  };
  // Hands the answer over once: keys after the first Enter (before the next render) find the input closed.
  const give = (text: string | null) => {
    if (!current.current.asking) return;
    current.current = { ...current.current, asking: false };
    const trimmed = text?.trim() ?? "";
    setAnswerFor({ final: current.current.final, answer: trimmed ? { kind: "answered", text: trimmed } : { kind: "declined" } });
    setDraft("");
    opts.onAnswer?.(trimmed || null);
  };

  // One key handler for the view's whole life, so no key is lost when the question appears: Ctrl+C leaves an
  // open question for later, otherwise asks the CLI to stop the run; other keys edit the answer.
  useInput(
    (input, key) => {
      const open = current.current.asking;
      if (key.ctrl && input === "c") {
        if (open) give(null);
        else opts.onInterrupt?.();
        return;
      }
      if (!open) return;
      const edit = editLine(draft.current, input, key);
      if (edit.submit !== undefined) give(edit.submit);
      else setDraft(edit.value);
    },
    { isActive: canType && !stopped },
  );
  return { question, waiting, answer, inline, draft: draftShown };
}

/** One row per agent; the running one shows its stream, gate and tool calls, and the stories sit under theirs. */
function AgentList({ state, stream, tools, verbose }: { state: ViewState; stream: string[]; tools: ViewState["tools"]; verbose: boolean }) {
  const spinner = SPINNER[Math.floor(performance.now() / SPINNER_MS) % SPINNER.length]!;
  const nameWidth = Math.min(16, Math.max(11, ...state.agents.map((a) => a.id.length + 2)));
  // Stories are drawn under the row of the agent their dev runs run in, else below every agent.
  const storiesUnder = state.stories.length && state.agents.some((a) => a.id === state.storyAgent) ? state.storyAgent : null;
  return (
    <Box flexDirection="column" marginTop={1}>
      {state.agents.map((a) => (
        <Box key={a.id} flexDirection="column">
          <AgentRow
            agent={a}
            nameWidth={nameWidth}
            spinner={a.status === "running" ? spinner : ""}
            stream={a.id === state.running ? stream : undefined}
            gateCommand={a.id === state.running && state.gateRunning?.node === a.id ? state.gateRunning.command : undefined}
            tools={a.id === state.running ? tools : undefined}
            verbose={verbose}
          />
          {a.id === storiesUnder ? <StoryList stories={state.stories} spinner={spinner} /> : null}
        </Box>
      ))}
      {storiesUnder === null ? <StoryList stories={state.stories} spinner={spinner} /> : null}
    </Box>
  );
}

/** Warnings, errors and info notes, one truncated line each. */
function NoticeList({ notices }: { notices: ViewState["notices"] }) {
  if (!notices.length) return null;
  return (
    <Box flexDirection="column" marginTop={1}>
      {notices.map((n, i) => (
        <Text key={i} wrap="truncate-end" color={n.level === "error" ? "red" : n.level === "warning" ? "yellow" : undefined} dimColor={n.level === "info"}>
          {n.level === "error" ? "✗ error " : n.level === "warning" ? "! " : "~ "}
          {n.text}
        </Text>
      ))}
    </Box>
  );
}

/** The stories run in parallel, one line each, nested under their agent's row. */
function StoryList({ stories, spinner }: { stories: StoryView[]; spinner: string }) {
  if (!stories.length) return null;
  const { shown, folded } = storyRows(stories);
  const idWidth = Math.min(STORY_ID_WIDTH, Math.max(4, ...shown.map((st) => Array.from(st.id).length + 2)));
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {shown.map((st) => (
        <StoryRow key={st.id} story={st} spinner={spinner} idWidth={idWidth} />
      ))}
      {folded.length ? (
        <Text wrap="truncate-end" dimColor>
          {`+ ${storiesSummary(folded).replace(/^(\S+) /, "$1 more ")}`}
        </Text>
      ) : null}
    </Box>
  );
}

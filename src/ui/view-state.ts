import type { RunStatus } from "../events/outcome.js";
import { gateBlocks } from "../events/judgement-words.js";
import type { GateResult, RunEnd, YoloEvent } from "../events/schema.js";
import { plural } from "../text/plural.js";
import { argsBrief, oneLine, stripControl, summarizedLine, type RunMode } from "./format.js";
import { storyLabel } from "./story-format.js";
import { hookNotice } from "./format.js";

export type AgentStatus = "waiting" | "running" | "done" | "skipped" | "blocked" | "escalated" | "stopped";

export interface AgentView {
  id: string;
  status: AgentStatus;
  /** The `node.completed` summary, one line. */
  summary: string;
  fixAttempt: number;
  tokens: number;
}

export interface ToolCallView {
  callId: string;
  node: string;
  tool: string;
  /** A short hint from the arguments ("package.json"). */
  args: string;
  /** null while the call is in flight. */
  ok: boolean | null;
  summary: string;
}

export interface QuestionView {
  askedBy: string;
  question: string;
  resumeCommand: string;
  /** An agent's question (answerable inline) or a human review (answered with its own flags). */
  kind: "question" | "approval";
}

/** The run's end, shown when it has ended. */
export type FinalView = RunEnd;

/** A story's place in its run: the engine's StoryStatus, plus "stopped" for one still running when the run ended. */
export type StoryViewStatus = "running" | "done" | "merged" | "failed" | "stopped";

/** One story run in parallel (docs/stories.md): kept per story, since several stories' dev runs share a node name. */
export interface StoryView {
  /** The story id, cleaned for the terminal (pm chose it: untrusted). */
  id: string;
  title: string;
  status: StoryViewStatus;
  /** The agent working on the story now (its dev run, or one resolving its merge conflict); null between runs. */
  agent: string | null;
  /** Its latest tool call (accepted handoffs left out). */
  tool: ToolCallView | null;
  tokens: number;
  filesChanged: number;
  /** Files that conflicted when its branch was merged. */
  conflicts: number;
  /** Its dev's summary, or why it failed, one line. */
  summary: string;
}

export interface NoticeView {
  level: "info" | "warning" | "error";
  text: string;
}

/** Everything the Ink view shows, derived from events only. */
export interface ViewState {
  thread: string;
  /** The thread's requirement, or the message a follow-up of an agent / chat thread answers. */
  requirement: string;
  /** From `run.started`: an agent or chat thread has no gate and no fix attempts. */
  mode: RunMode;
  model: string;
  resumed: boolean;
  /** Epoch ms of the first `run.started` / the last `run.completed`, from the events' timestamps. */
  startedAt: number | null;
  endedAt: number | null;
  tokens: number;
  /** Cost so far at the configured price (from `run.started.price`); null without a price. */
  cost: { amount: number; currency: string } | null;
  price: { inputPerMillion: number; outputPerMillion: number; currency: string } | null;
  /** From `run.started`, when the engine says it. */
  maxFixAttempts: number | null;
  /** The highest fix attempt an agent has started. */
  fixAttempt: number;
  /** In `run.started.nodes` order; nodes seen later but not listed are appended. */
  agents: AgentView[];
  running: string | null;
  /** The tail (at most STREAM_LINES lines) of the text the latest agent streamed. */
  stream: { node: string; text: string } | null;
  /** The last TOOL_LIMIT tool calls of the latest agent (accepted handoffs left out: the agent's row says it). */
  tools: ToolCallView[];
  /** The gate command running now (between its `gate.started` and `gate.result`), if any. */
  gateRunning: { node: string; name: string; command: string } | null;
  /** The latest result of each gate, in first-seen order. */
  gates: { node: string; gate: GateResult }[];
  route: { from: string; to: string; reason: string } | null;
  notices: NoticeView[];
  question: QuestionView | null;
  final: FinalView | null;
  /** The answer of an `agent` / `chat` thread (`reply`), printed in full below the view when it closes. */
  reply: string | null;
  /** Stories run in parallel, in the order they started; empty when the run has none. */
  stories: StoryView[];
  /** The agent whose row the stories are drawn under: the node their dev runs run in (null until one starts). */
  storyAgent: string | null;
}

export const STREAM_LINES = 6;
export const TOOL_LIMIT = 5;
const NOTICE_LIMIT = 3;
// Bounds the stored stream tail even when the model never emits a newline.
const STREAM_CHARS = 2000;
const HANDOFF = "handoff";

export const initialViewState: ViewState = {
  thread: "",
  requirement: "",
  mode: "run",
  model: "",
  resumed: false,
  startedAt: null,
  endedAt: null,
  tokens: 0,
  cost: null,
  price: null,
  maxFixAttempts: null,
  fixAttempt: 0,
  agents: [],
  running: null,
  stream: null,
  tools: [],
  gateRunning: null,
  gates: [],
  route: null,
  notices: [],
  question: null,
  final: null,
  reply: null,
  stories: [],
  storyAgent: null,
};

/** The view state after one more event. Pure: never mutates `state`. */
export function reduce(state: ViewState, e: YoloEvent): ViewState {
  // A story's dev run shares its node name with the others: its events go to its story, not to the running node.
  if (e.story !== undefined && !e.type.startsWith("story.")) {
    const next = storyEvent(state, storyKey(e.story), e);
    if (next) return next;
  }
  switch (e.type) {
    case "run.started":
      return started(state, e);
    case "node.started":
      return nodeStarted(state, e);
    case "node.completed":
      return {
        ...state,
        agents: updateAgent(state.agents, e.node, (a) => ({ ...a, status: e.blocked ? "blocked" : "done", summary: oneLine(e.summary) })),
        running: state.running === e.node ? null : state.running,
        gateRunning: state.gateRunning?.node === e.node ? null : state.gateRunning,
      };
    case "thought":
      return state;
    case "token": {
      const prev = state.stream?.node === e.node ? state.stream.text : "";
      return { ...state, stream: { node: e.node, text: streamTail(prev + e.text) } };
    }
    case "tool.called":
      return toolCalled(state, e);
    case "tool.result":
      return toolResult(state, e);
    case "gate.started":
      return { ...state, gateRunning: { node: e.node, name: oneLine(e.name), command: oneLine(e.command) } };
    case "gate.result":
      return gateResult(state, e);
    case "route":
      return {
        ...state,
        agents: sentBack(skipBetween(state.agents, e.from, e.to), e.from, e.to),
        route: { from: e.from, to: e.to, reason: oneLine(e.reason) },
      };
    case "interrupt":
      return interrupted(state, e);
    case "usage":
      return {
        ...state,
        tokens: state.tokens + e.usage.totalTokens,
        cost: addCost(state.cost, state.price, e.usage),
        agents: updateAgent(state.agents, e.node, (a) => ({ ...a, tokens: a.tokens + e.usage.totalTokens })),
      };
    case "context.summarized":
      return withNotice(state, "info", summarizedLine(e));
    case "reply":
      return {
        ...state,
        reply: e.text,
        agents: updateAgent(state.agents, e.node, (a) => ({ ...a, summary: oneLine(e.text) })),
      };
    case "hook.result": {
      const notice = hookNotice(e);
      return notice ? withNotice(state, "warning", notice) : state;
    }
    case "story.started":
      return {
        ...state,
        stories: updateStory(state.stories, storyKey(e.story), (st) => ({ ...st, title: oneLine(e.title), status: "running", summary: "" })),
      };
    case "story.completed":
      return storyCompleted(state, e);
    case "story.merged":
      return settleStories({
        ...state,
        stories: updateStory(state.stories, storyKey(e.story), (st) => ({ ...st, status: "merged", agent: null, conflicts: e.conflicts.length })),
      });
    case "warning":
    case "error":
      return withNotice(state, e.type, e.type === "error" ? `${e.code}: ${oneLine(e.message)}` : oneLine(e.message));
    case "run.completed":
      return runCompleted(state, e);
  }
}

type EventOf<T extends YoloEvent["type"]> = Extract<YoloEvent, { type: T }>;

/** Appends one notice, keeping only the last NOTICE_LIMIT. */
function withNotice(state: ViewState, level: NoticeView["level"], text: string): ViewState {
  return { ...state, notices: [...state.notices, { level, text }].slice(-NOTICE_LIMIT) };
}

/** A node starts: it becomes the running agent and the previous node's stream, tools and question are cleared. */
function nodeStarted(state: ViewState, e: EventOf<"node.started">): ViewState {
  return {
    ...state,
    agents: updateAgent(state.agents, e.node, (a) => ({ ...a, status: "running", fixAttempt: e.fixAttempt })),
    running: e.node,
    fixAttempt: Math.max(state.fixAttempt, e.fixAttempt),
    gateRunning: null,
    stream: null,
    tools: [],
    question: null,
  };
}

/** A tool call joins the recent list (handoffs are shown as routes, not calls). */
function toolCalled(state: ViewState, e: EventOf<"tool.called">): ViewState {
  if (e.tool === HANDOFF) return state;
  const call: ToolCallView = {
    callId: e.callId,
    node: e.node,
    tool: e.tool,
    args: argsBrief(e.args),
    ok: null,
    summary: "",
  };
  return { ...state, tools: [...state.tools, call].slice(-TOOL_LIMIT) };
}

/** A tool result settles its call, or joins the list on its own when the call scrolled out or was never seen. */
function toolResult(state: ViewState, e: EventOf<"tool.result">): ViewState {
  if (e.tool === HANDOFF && e.ok) return state;
  const summary = oneLine(e.summary);
  const i = state.tools.findIndex((t) => t.callId === e.callId);
  if (i < 0) {
    const call: ToolCallView = { callId: e.callId, node: e.node, tool: e.tool, args: "", ok: e.ok, summary };
    return { ...state, tools: [...state.tools, call].slice(-TOOL_LIMIT) };
  }
  const tools = state.tools.slice();
  tools[i] = { ...tools[i], ok: e.ok, summary };
  return { ...state, tools };
}

/** A gate result replaces the earlier result of the same gate, so a rerun shows once. */
function gateResult(state: ViewState, e: EventOf<"gate.result">): ViewState {
  const i = state.gates.findIndex((g) => g.gate.name === e.gate.name);
  const gates = state.gates.slice();
  if (i < 0) gates.push({ node: e.node, gate: e.gate });
  else gates[i] = { node: e.node, gate: e.gate };
  return { ...state, gates, gateRunning: null };
}

/** A question for the human: the asking agent shows as escalated. */
function interrupted(state: ViewState, e: EventOf<"interrupt">): ViewState {
  const who = [e.askedBy, e.node].find((id) => state.agents.some((a) => a.id === id));
  return {
    ...state,
    agents: who ? updateAgent(state.agents, who, (a) => ({ ...a, status: "escalated" })) : state.agents,
    question: { askedBy: e.askedBy, question: stripControl(e.question).trim(), resumeCommand: e.resumeCommand, kind: e.kind ?? "question" },
  };
}

/** A story's dev run ended: its row takes the outcome and its usage. */
function storyCompleted(state: ViewState, e: EventOf<"story.completed">): ViewState {
  return settleStories({
    ...state,
    stories: updateStory(state.stories, storyKey(e.story), (st) => ({
      ...st,
      status: e.status,
      agent: null,
      tokens: e.usage.totalTokens,
      filesChanged: e.filesChanged.length,
      summary: oneLine(e.summary),
    })),
  });
}

/** The run ended: every agent and story settles and the final outcome is kept. */
function runCompleted(state: ViewState, e: EventOf<"run.completed">): ViewState {
  // A failed run was blocked by the agent whose gates block (as the verdict reads them), or else by the last one to route.
  const red = new Set(state.gates.filter((g) => gateBlocks(g.gate)).map((g) => g.node));
  if (red.size === 0 && state.route) red.add(state.route.from);
  return {
    ...state,
    // A thread with nothing left to run reports where it stands without a run.started.
    thread: state.thread || e.thread,
    endedAt: parseTs(e.ts),
    tokens: e.usage.totalTokens,
    cost: addCost(null, state.price, e.usage),
    agents: state.agents.map((a) => settle(a, e.status, red)),
    stories: state.stories.map((st) => (st.status === "running" ? { ...st, status: "stopped" as const, agent: null } : st)),
    running: null,
    gateRunning: null,
    final: {
      status: e.status,
      limit: e.limit ?? null,
      exitCode: e.exitCode,
      reason: oneLine(e.reason),
      usage: e.usage,
      filesChanged: e.filesChanged,
      resumeCommand: e.resumeCommand,
    },
  };
}

/** Adds the cost of some usage at the run's price; null when no price is configured. */
function addCost(cost: ViewState["cost"], price: ViewState["price"], usage: { promptTokens: number; completionTokens: number }): ViewState["cost"] {
  if (!price) return null;
  const amount = (usage.promptTokens * price.inputPerMillion + usage.completionTokens * price.outputPerMillion) / 1_000_000;
  return { amount: (cost?.amount ?? 0) + amount, currency: price.currency };
}

/** The last `n` lines of the running agent's streamed text, cleaned for the terminal. */
export function streamLines(state: ViewState, n = STREAM_LINES): string[] {
  if (n <= 0 || !state.stream || state.stream.node !== state.running) return [];
  const lines = stripControl(state.stream.text)
    .split("\n")
    .map((l) => l.trimEnd());
  while (lines.length && lines[lines.length - 1] === "") lines.pop();
  return lines.slice(-n);
}

// A new leg of the same thread (an answered question, in the same view) continues the picture; anything else starts afresh.
function started(state: ViewState, e: Extract<YoloEvent, { type: "run.started" }>): ViewState {
  // What ran before this leg is known only as "it ran" (a resume in a new process).
  const ran = new Set(e.ran ?? []);
  const fresh = e.nodes.map(
    (id): AgentView => ({ id, status: ran.has(id) ? "done" : "waiting", summary: ran.has(id) ? "ran before this resume" : "", fixAttempt: 0, tokens: 0 }),
  );
  const maxFixAttempts = e.maxFixAttempts ?? null;
  if (state.thread !== "" && state.thread === e.thread) {
    const known = new Map(state.agents.map((a) => [a.id, a]));
    const listed = fresh.map((a) => known.get(a.id) ?? a);
    const extra = state.agents.filter((a) => !e.nodes.includes(a.id));
    return {
      ...state,
      requirement: e.message !== undefined ? oneLine(e.message) : state.requirement || oneLine(e.requirement),
      mode: e.mode ?? state.mode,
      model: e.model,
      startedAt: state.startedAt ?? parseTs(e.ts),
      maxFixAttempts: maxFixAttempts ?? state.maxFixAttempts,
      price: e.price ?? state.price,
      agents: [...listed, ...extra],
      endedAt: null,
      running: null,
      gateRunning: null,
      stream: null,
      route: null,
      question: null,
      final: null,
    };
  }
  return {
    ...initialViewState,
    thread: e.thread,
    // A follow-up answers its new message: that is what the user is waiting on.
    requirement: oneLine(e.message ?? e.requirement),
    mode: e.mode ?? "run",
    model: e.model,
    resumed: e.resumed,
    startedAt: parseTs(e.ts),
    tokens: e.usageSoFar?.totalTokens ?? 0,
    price: e.price ?? null,
    cost: e.usageSoFar ? addCost(null, e.price ?? null, e.usageSoFar) : e.price ? { amount: 0, currency: e.price.currency } : null,
    maxFixAttempts,
    agents: fresh,
  };
}

// Milliseconds since the epoch, or null when the timestamp does not parse.
function parseTs(ts: string): number | null {
  const ms = Date.parse(ts);
  return Number.isNaN(ms) ? null : ms;
}

// Keeps only the last STREAM_LINES lines (and STREAM_CHARS characters) so a token flood stays cheap.
function streamTail(text: string): string {
  let t = text.length > STREAM_CHARS ? text.slice(-STREAM_CHARS) : text;
  let idx = t.length;
  for (let count = 0; count < STREAM_LINES; count++) {
    idx = t.lastIndexOf("\n", idx - 1);
    if (idx < 0) return t;
  }
  t = t.slice(idx + 1);
  return t;
}

// Applies `fn` to the agent `id`, appending a row for a node the pipeline did not list.
function updateAgent(agents: AgentView[], id: string, fn: (a: AgentView) => AgentView): AgentView[] {
  const i = agents.findIndex((a) => a.id === id);
  if (i < 0) return [...agents, fn({ id, status: "waiting", summary: "", fixAttempt: 0, tokens: 0 })];
  const next = agents.slice();
  next[i] = fn(agents[i]);
  return next;
}

// A forward route (pm → dev) skips the agents between that never ran.
function skipBetween(agents: AgentView[], from: string, to: string): AgentView[] {
  const a = agents.findIndex((x) => x.id === from);
  const b = agents.findIndex((x) => x.id === to);
  if (a < 0 || b < 0 || b <= a + 1) return agents;
  return agents.map((x, i) => (i > a && i < b && x.status === "waiting" ? { ...x, status: "skipped" } : x));
}

// A backward route (tea → dev) means the agent blocked the change and sent it back.
function sentBack(agents: AgentView[], from: string, to: string): AgentView[] {
  const a = agents.findIndex((x) => x.id === from);
  const b = agents.findIndex((x) => x.id === to);
  if (a < 0 || b < 0 || b >= a || agents[a].status !== "done") return agents;
  return agents.map((x, i) => (i === a ? { ...x, status: "blocked" } : x));
}

// An agent's final status once the run has ended with `status`; `red` are the agents that blocked the change.
function settle(a: AgentView, status: RunStatus, red: Set<string>): AgentView {
  switch (status) {
    case "passed":
      if (a.status === "waiting") return { ...a, status: "skipped" };
      return a.status === "running" || a.status === "blocked" ? { ...a, status: "done" } : a;
    case "failed":
      return a.status === "running" || (a.status === "done" && red.has(a.id)) ? { ...a, status: "blocked" } : a;
    case "waiting":
      return a.status === "running" ? { ...a, status: "escalated" } : a;
    case "interrupted":
      return a.status === "running" ? { ...a, status: "stopped" } : a;
    default:
      return a.status === "running" ? { ...a, status: "blocked" } : a;
  }
}

// Story ids come from pm (the model): one clean line, bounded, so a hostile id cannot break or flood a row.
const storyKey = storyLabel;

// Applies `fn` to the story `id`, adding it (running, untitled) when its first event is not `story.started`.
function updateStory(stories: StoryView[], id: string, fn: (st: StoryView) => StoryView): StoryView[] {
  const i = stories.findIndex((st) => st.id === id);
  if (i < 0) {
    const fresh: StoryView = { id, title: "", status: "running", agent: null, tool: null, tokens: 0, filesChanged: 0, conflicts: 0, summary: "" };
    return [...stories, fn(fresh)];
  }
  const next = stories.slice();
  next[i] = fn(stories[i]);
  return next;
}

/**
 * An event of one story's dev run: it updates that story's row and the totals, never the single running node's
 * text and tool calls; null for the events that mean the same with or without a story (questions, notices, …).
 */
function storyEvent(state: ViewState, id: string, e: YoloEvent): ViewState | null {
  switch (e.type) {
    case "node.started":
      return {
        ...state,
        storyAgent: state.storyAgent ?? e.node,
        fixAttempt: Math.max(state.fixAttempt, e.fixAttempt),
        agents: updateAgent(state.agents, e.node, (a) => ({ ...a, status: "running", fixAttempt: e.fixAttempt })),
        stories: updateStory(state.stories, id, (st) => ({ ...st, agent: e.node, tool: null, status: st.status === "stopped" ? "running" : st.status })),
      };
    case "node.completed":
      return settleStories({
        ...state,
        storyAgent: state.storyAgent ?? e.node,
        stories: updateStory(state.stories, id, (st) => ({ ...st, agent: null, summary: st.summary || oneLine(e.summary) })),
      });
    case "token":
      return state;
    case "tool.called": {
      if (e.tool === HANDOFF) return state;
      const call: ToolCallView = { callId: e.callId, node: e.node, tool: e.tool, args: argsBrief(e.args), ok: null, summary: "" };
      return { ...state, stories: updateStory(state.stories, id, (st) => ({ ...st, tool: call })) };
    }
    case "tool.result": {
      if (e.tool === HANDOFF && e.ok) return state;
      const summary = oneLine(e.summary);
      return {
        ...state,
        stories: updateStory(state.stories, id, (st) => ({
          ...st,
          tool:
            st.tool?.callId === e.callId ? { ...st.tool, ok: e.ok, summary } : { callId: e.callId, node: e.node, tool: e.tool, args: "", ok: e.ok, summary },
        })),
      };
    }
    case "usage":
      return {
        ...state,
        tokens: state.tokens + e.usage.totalTokens,
        cost: addCost(state.cost, state.price, e.usage),
        agents: updateAgent(state.agents, e.node, (a) => ({ ...a, tokens: a.tokens + e.usage.totalTokens })),
        stories: updateStory(state.stories, id, (st) => ({ ...st, tokens: st.tokens + e.usage.totalTokens })),
      };
    default:
      return null;
  }
}

// The stories' agent row stays running while any story runs; then it sums them up (blocked when one failed).
function settleStories(state: ViewState): ViewState {
  const node = state.storyAgent;
  if (node === null || state.running === node) return state;
  if (state.stories.some((st) => st.agent === node || (st.status === "running" && st.agent === null))) return state;
  const failed = state.stories.some((st) => st.status === "failed");
  return {
    ...state,
    agents: updateAgent(state.agents, node, (a) => ({ ...a, status: failed ? "blocked" : "done", summary: storiesSummary(state.stories) })),
  };
}

/** "4 stories: 2 merged, 1 done, 1 failed": the stories' row summary. */
export function storiesSummary(stories: StoryView[]): string {
  const order: StoryViewStatus[] = ["merged", "done", "running", "stopped", "failed"];
  const counts = order.map((status) => [status, stories.filter((st) => st.status === status).length] as const).filter(([, n]) => n > 0);
  return `${plural(stories.length, "story", "stories")}: ${counts.map(([status, n]) => `${n} ${status}`).join(", ")}`;
}

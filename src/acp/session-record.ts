import { appendFileSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { SessionInfo } from "@agentclientprotocol/sdk";
import { yoloEventSchema, type YoloEvent } from "../events/schema.js";

/**
 * What an ACP session said and did, kept so `session/load` can show it again after the editor (or `yolo acp`)
 * restarted: one JSON line per prompt the user gave (`{ prompt }`) and per event its runs emitted (`{ event }`),
 * under the project's `.yolo/acp/<session id>.jsonl`. Streamed words and thinking are kept one line per stretch of one
 * agent's text (RecordWriter), not one per token batch; everything else the editor was shown is kept as it came.
 */
export type RecordLine = { prompt: string; ts: string } | { event: YoloEvent };

/** The folder of a project's session records. */
export function recordsDir(cwd: string): string {
  return join(cwd, ".yolo", "acp");
}

/** Session ids we make (`yolo-<uuid>`) and thread ids: a name that cannot leave the records folder. */
const SAFE_ID = /^[\w-]{1,100}$/;

function recordFile(cwd: string, sessionId: string): string | null {
  return SAFE_ID.test(sessionId) ? join(recordsDir(cwd), `${sessionId}.jsonl`) : null;
}

/** Appends one line to a session's record; a record that cannot be written costs only its replay, never the run. */
export function record(cwd: string, sessionId: string, line: RecordLine): void {
  const file = recordFile(cwd, sessionId);
  if (!file) return;
  try {
    mkdirSync(recordsDir(cwd), { recursive: true });
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  } catch {
    // a read-only or full disk: the session goes on without its record
  }
}

/** Text one stretch of streamed words keeps in the record; the rest of a longer stretch is left out, marked. */
export const STREAM_RECORD_CAP = 64 * 1024;

type Streamed = Extract<YoloEvent, { type: "token" | "thought" }>;

/**
 * Writes one run leg's events to its session's record, streamed text coalesced: an agent's words arrive as many small
 * events (a batch a few times a second), and a replay needs only what it said, so each stretch of one agent's words
 * (or thinking) is written as one event, before the next event of another kind and when the leg ends (`flush`).
 */
export class RecordWriter {
  private pending: Streamed | null = null;

  constructor(
    private readonly cwd: string,
    private readonly sessionId: string,
  ) {}

  write(event: YoloEvent): void {
    if (event.type !== "token" && event.type !== "thought") {
      this.flush();
      record(this.cwd, this.sessionId, { event });
      return;
    }
    const p = this.pending;
    if (!p || p.type !== event.type || p.node !== event.node || p.story !== event.story) {
      this.flush();
      this.pending = { ...event };
    } else if (p.text.length < STREAM_RECORD_CAP) {
      p.text += event.text;
      if (p.text.length >= STREAM_RECORD_CAP) p.text = `${p.text.slice(0, STREAM_RECORD_CAP)} […]`;
    }
  }

  /** Writes the stretch of streamed text still held. */
  flush(): void {
    if (this.pending) record(this.cwd, this.sessionId, { event: this.pending });
    this.pending = null;
  }
}

/** A session's record, oldest first; null when this project has none for that id. Lines that do not parse are skipped. */
export function readRecord(cwd: string, sessionId: string): RecordLine[] | null {
  const file = recordFile(cwd, sessionId);
  if (!file) return null;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return null;
  }
  const lines: RecordLine[] = [];
  for (const raw of text.split("\n")) {
    if (!raw.trim()) continue;
    try {
      const value = JSON.parse(raw) as { prompt?: unknown; ts?: unknown; event?: unknown };
      if (typeof value.prompt === "string") lines.push({ prompt: value.prompt, ts: String(value.ts ?? "") });
      const parsed = value.event === undefined ? null : yoloEventSchema.safeParse(value.event);
      if (parsed?.success) lines.push({ event: parsed.data });
    } catch {
      // a line cut by a crash mid-write
    }
  }
  return lines;
}

/** The project's recorded sessions, newest first: the first prompt is the title, the record's last write the time. */
export function recordedSessions(cwd: string): (SessionInfo & { threads: string[] })[] {
  let names: string[];
  try {
    names = readdirSync(recordsDir(cwd)).filter((n) => n.endsWith(".jsonl"));
  } catch {
    return [];
  }
  const sessions = names.map((name) => {
    const sessionId = name.slice(0, -".jsonl".length);
    const lines = readRecord(cwd, sessionId) ?? [];
    const first = lines.find((l): l is { prompt: string; ts: string } => "prompt" in l);
    const threads = [...new Set(lines.flatMap((l) => ("event" in l && l.event.type === "run.started" ? [l.event.thread] : [])))];
    const updatedAt = statSync(join(recordsDir(cwd), name)).mtime.toISOString();
    return { sessionId, cwd, title: first ? titleOf(first.prompt) : null, updatedAt, threads };
  });
  return sessions.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}

function titleOf(prompt: string): string {
  const line = prompt.trim().split("\n")[0];
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

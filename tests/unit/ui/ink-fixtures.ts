// Shared by the Ink view tests: the recorded run, small event builders and stand-in terminal streams.
import { Console } from "node:console";
import { EventEmitter } from "node:events";
import { readFileSync } from "node:fs";
import { yoloEventSchema, type YoloEvent } from "../../../src/events/schema.js";

const FIXTURE = new URL("../../fixtures/events/pipeline-run.json", import.meta.url);

/** The recorded events of a whole run (k3f9x2ab: pm skips architect, one fix attempt, then the gate passes). */
export function recordedRun(): YoloEvent[] {
  return (JSON.parse(readFileSync(FIXTURE, "utf8")) as unknown[]).map((e) => yoloEventSchema.parse(e));
}

/** The recorded events up to (not including) the first one matching `stop`. */
export function recordedUntil(stop: (e: YoloEvent) => boolean): YoloEvent[] {
  const all = recordedRun();
  const i = all.findIndex(stop);
  return i < 0 ? all : all.slice(0, i);
}

export const base = { v: 1 as const, thread: "k3f9x2ab", ts: "2025-05-01T12:00:30.000Z" };
export const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2, calls: 1 };
export const ANSWER_COMMAND = 'yolo resume k3f9x2ab --answer "<your answer>"';

/** An agent's question and the waiting end of the leg, as the engine emits them. */
export function askedAndWaiting(askedBy = "analyst", question = "Integers only, or floats too?"): YoloEvent[] {
  return [
    { ...base, type: "interrupt", node: "escalate", askedBy, question, resumeCommand: ANSWER_COMMAND },
    {
      ...base,
      type: "run.completed",
      status: "waiting",
      exitCode: 3,
      reason: `${askedBy} asks: ${question}`,
      usage,
      filesChanged: [],
      resumeCommand: ANSWER_COMMAND,
    },
  ];
}

/** Code-point widths of a frame's lines. */
export const widths = (frame: string) => frame.split("\n").map((l) => Array.from(l).length);

/** A stand-in terminal for createInkRenderer that records everything written to it. */
export function fakeStdout(columns = 80, rows = 40) {
  const out = Object.assign(new EventEmitter(), {
    columns,
    rows,
    isTTY: false,
    text: "",
    write(chunk: string) {
      out.text += chunk;
      return true;
    },
  });
  return out;
}

/** A stand-in keyboard: a TTY whose raw mode can be set, fed with `type()`. */
export function fakeStdin() {
  let pending: string | null = null;
  const input = Object.assign(new EventEmitter(), {
    isTTY: true,
    rawMode: false,
    setRawMode(on: boolean) {
      input.rawMode = on;
    },
    setEncoding() {},
    resume() {},
    pause() {},
    ref() {},
    unref() {},
    read() {
      const data = pending;
      pending = null;
      return data;
    },
    type(data: string) {
      pending = data;
      input.emit("readable");
    },
  });
  return input;
}

/** Ink patches the console through `console.Console`, which vitest's console replacement lacks. */
export function withConsoleClass(): () => void {
  const c = console as { Console?: unknown };
  const had = "Console" in c;
  if (!had) c.Console = Console;
  return () => {
    if (!had) delete c.Console;
  };
}

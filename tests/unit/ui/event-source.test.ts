import { describe, expect, it } from "vitest";
import type { YoloEvent } from "../../../src/events/schema.js";
import { createEventSource } from "../../../src/ui/event-source.js";

const base = { v: 1 as const, thread: "t1", ts: "2025-05-01T12:00:00.000Z" };
const token = (node: string, text: string, story?: string): YoloEvent => ({ ...base, type: "token", node, text, ...(story ? { story } : {}) });

describe("event source history", () => {
  it("merges consecutive tokens of one agent (and story) into one entry, read whole at any time", () => {
    const source = createEventSource();
    source.push(token("dev", "a"));
    source.push(token("dev", "b"));
    expect(source.snapshot()).toEqual([token("dev", "ab")]);
    source.push(token("dev", "c"));
    source.push({ ...base, type: "node.completed", node: "dev", summary: "done" });
    source.push(token("tea", "x"));
    expect(source.snapshot().map((e) => (e.type === "token" ? `${e.node}:${e.text}` : e.type))).toEqual(["dev:abc", "node.completed", "tea:x"]);
  });

  it("keeps the tokens of parallel stories apart, as the view and scrollback show them", () => {
    const source = createEventSource();
    source.push(token("dev", "one ", "s1"));
    source.push(token("dev", "two ", "s2"));
    source.push(token("dev", "more", "s2"));
    expect(source.snapshot()).toEqual([token("dev", "one ", "s1"), token("dev", "two more", "s2")]);
  });

  it("hands every event to every subscriber, unmerged", () => {
    const source = createEventSource();
    const seen: string[] = [];
    const off = source.subscribe((e) => seen.push(e.type === "token" ? e.text : e.type));
    source.subscribe((e) => seen.push(`2:${e.type === "token" ? e.text : e.type}`));
    source.push(token("dev", "a"));
    off();
    source.push(token("dev", "b"));
    expect(seen).toEqual(["a", "2:a", "2:b"]);
  });
});

import { describe, expect, it } from "vitest";
import { frameWrites } from "../../../src/ui/ink/frame-writes.js";

// A stand-in terminal that records each write it receives.
function terminal() {
  const writes: string[] = [];
  const stream = {
    columns: 100,
    rows: 30,
    isTTY: true,
    write(chunk: string, callback?: () => void) {
      writes.push(chunk);
      callback?.();
      return true;
    },
  };
  return { writes, stream: stream as unknown as NodeJS.WriteStream };
}

describe("frameWrites", () => {
  it("joins the writes of one synchronous turn into one write, in order", async () => {
    const { writes, stream } = terminal();
    const frames = frameWrites(stream);
    try {
      frames.stdout.write("\x1b[?2026h");
      frames.stdout.write("erase");
      frames.stdout.write("frame");
      frames.stdout.write("\x1b[?2026l");
      expect(writes).toEqual([]);
      await Promise.resolve();
      expect(writes).toEqual(["\x1b[?2026heraseframe\x1b[?2026l"]);
      frames.stdout.write("next");
      await Promise.resolve();
      expect(writes).toEqual(["\x1b[?2026heraseframe\x1b[?2026l", "next"]);
    } finally {
      frames.close();
    }
  });

  it("writes what it holds before a write with a callback, and on close", () => {
    const { writes, stream } = terminal();
    const frames = frameWrites(stream);
    let called = false;
    frames.stdout.write("last frame");
    (frames.stdout.write as (chunk: string, cb: () => void) => boolean)("", () => {
      called = true;
    });
    expect(writes).toEqual(["last frame", ""]);
    expect(called).toBe(true);
    frames.stdout.write("after");
    frames.close();
    expect(writes).toEqual(["last frame", "", "after"]);
  });

  it("is the real stream for everything but write", () => {
    const { stream } = terminal();
    const frames = frameWrites(stream);
    frames.close();
    expect(frames.stdout.columns).toBe(100);
    expect(frames.stdout.rows).toBe(30);
    expect(frames.stdout.isTTY).toBe(true);
    expect("isTTY" in frames.stdout).toBe(true);
  });
});

/** A terminal stream whose writes of one synchronous turn reach the real stream as one write. */
export interface FrameWrites {
  /** Hand this to Ink instead of the real stream. */
  stdout: NodeJS.WriteStream;
  /** Writes whatever is held now (before writing to the real stream directly, or at exit). */
  flush(): void;
  /** Flushes and stops watching the process's exit. */
  close(): void;
}

/**
 * Ink draws a frame with several writes (erase the old frame, the new <Static> lines, the frame itself, the
 * synchronized-update brackets). Joined, a frame is one write: one syscall instead of three to five, and the
 * terminal never shows a half-drawn frame. Everything else (size, events, `isTTY`) is the real stream's.
 */
export function frameWrites(stream: NodeJS.WriteStream): FrameWrites {
  let held: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (!held.length) return;
    const text = held.join("");
    held = [];
    stream.write(text);
  };
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    // Anything but a plain string (a Buffer, an encoding, a callback to call once written) goes through in order.
    if (typeof chunk !== "string" || rest.length > 0) {
      flush();
      return (stream.write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }
    held.push(chunk);
    if (!scheduled) {
      scheduled = true;
      queueMicrotask(flush);
    }
    return true;
  };
  // process.exit() runs no more microtasks: what is held is written on the way out (terminal writes are synchronous).
  process.on("exit", flush);
  const stdout = new Proxy(stream, {
    get(target, property) {
      if (property === "write") return write;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return {
    stdout,
    flush,
    close() {
      flush();
      process.off("exit", flush);
    },
  };
}

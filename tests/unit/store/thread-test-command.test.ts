import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { threadTestCommand } from "../../../src/store/thread-test-command.js";

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

describe("a thread's --test-cmd, kept for its later legs", () => {
  it("a resume without the flag gets the command the run was given; a resume with one replaces it; a fork inherits it", () => {
    dir = mkdtempSync(join(tmpdir(), "yolo-testcmd-"));
    const kept = (id: string, given: string | undefined, from?: string) => {
      const t = threadTestCommand(dir as string, id, given, from);
      t.keep();
      return t.command;
    };
    expect(kept("t1", undefined)).toBeNull();
    // Nothing is written before keep(): a refused start leaves no trace.
    expect(threadTestCommand(dir, "t1", "never kept").command).toBe("never kept");
    expect(kept("t1", undefined)).toBeNull();
    expect(kept("t1", "sleep 1; npm test")).toBe("sleep 1; npm test");
    expect(kept("t1", undefined)).toBe("sleep 1; npm test");
    expect(kept("t1", "npm run test:unit")).toBe("npm run test:unit");
    expect(kept("t1", undefined)).toBe("npm run test:unit");
    expect(kept("t2", undefined, "t1")).toBe("npm run test:unit");
    expect(kept("t2", undefined)).toBe("npm run test:unit");
    expect(kept("other", undefined)).toBeNull();
    // A blank command is handed back for the caller to refuse, and never kept over the thread's own.
    expect(kept("t1", " ")).toBe(" ");
    expect(kept("t1", undefined)).toBe("npm run test:unit");
  });
});

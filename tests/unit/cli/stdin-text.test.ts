import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { textFromStdin } from "../../../src/cli/stdin-text.js";
import { ConfigError } from "../../../src/errors.js";

const stream = (text: string, isTTY: boolean) => Object.assign(Readable.from([Buffer.from(text)]), { isTTY }) as unknown as NodeJS.ReadStream;

describe('"-": the text from stdin', () => {
  it("reads a pipe whole, trimmed", async () => {
    expect(await textFromStdin('yolo run "…"', stream("  line 1\nline 2\n\n", false))).toBe("line 1\nline 2");
  });

  it("refuses a terminal at once instead of waiting for input nobody knows is wanted", async () => {
    const error = await textFromStdin('yolo run "…"', stream("never read", true)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      '"-" reads the text from stdin, but stdin is a terminal. Pipe it in (yolo run - < requirement.md) or give it as words.',
    );
  });
});

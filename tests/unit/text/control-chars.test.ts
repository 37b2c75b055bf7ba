import { describe, expect, it } from "vitest";
import { escapeControls, escapeControlsInJson } from "../../../src/text/control-chars.js";

describe("escapeControls", () => {
  it("shows every control a terminal would act on as its escape, and keeps text, tabs and newlines", () => {
    expect(escapeControls("a\x1b]52;c;eA==\x07b")).toBe("a\\x1b]52;c;eA==\\x07b");
    expect(escapeControls("\x9b2J\x9d0;t\x9c\x7f\x00")).toBe("\\x9b2J\\x9d0;t\\x9c\\x7f\\x00");
    expect(escapeControls("safe\rspoof")).toBe("safe\\x0dspoof");
    expect(escapeControls("line\r\nnext\tcol\n")).toBe("line\r\nnext\tcol\n");
    expect(escapeControls("\u202eexe.txt \u2066x\u2069")).toBe("\\u202eexe.txt \\u2066x\\u2069");
    expect(escapeControls("héllo ✓ 日本")).toBe("héllo ✓ 日本");
  });

  it("drops colour codes whole (test runners' output), so none can conceal text", () => {
    expect(escapeControls("\x1b[32m✓\x1b[0m ok \x1b[8mhidden\x1b[m")).toBe("✓ ok hidden");
  });

  it("JSON keeps its value: the controls JSON.stringify leaves raw become \\u escapes", () => {
    const value = { s: "a\x1b[2J\x9b\u202eb\x7f" };
    const json = escapeControlsInJson(JSON.stringify(value));
    expect(json).not.toMatch(/[\x00-\x1f\x7f-\x9f\u202e]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});

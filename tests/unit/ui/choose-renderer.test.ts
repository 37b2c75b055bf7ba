import { describe, expect, it } from "vitest";
import { chooseRendererKind } from "../../../src/ui/choose-renderer.js";

const tty = { json: false, tui: undefined, isTTY: true, env: { TERM: "xterm-256color" } };

describe("chooseRendererKind", () => {
  it("uses Ink on an interactive terminal", () => {
    expect(chooseRendererKind(tty)).toBe("ink");
  });

  it("lets --json win over everything", () => {
    expect(chooseRendererKind({ ...tty, json: true })).toBe("json");
    expect(chooseRendererKind({ ...tty, json: true, tui: true })).toBe("json");
  });

  it("honours an explicit --tui or --no-tui", () => {
    expect(chooseRendererKind({ ...tty, tui: false })).toBe("plain");
    expect(chooseRendererKind({ ...tty, isTTY: false, tui: true })).toBe("ink");
    expect(chooseRendererKind({ ...tty, env: { CI: "true" }, tui: true })).toBe("ink");
  });

  it("prints plain lines when stdout is not a terminal", () => {
    expect(chooseRendererKind({ ...tty, isTTY: false })).toBe("plain");
  });

  it("prints plain lines in CI unless CI is empty", () => {
    expect(chooseRendererKind({ ...tty, env: { CI: "true", TERM: "xterm" } })).toBe("plain");
    expect(chooseRendererKind({ ...tty, env: { CI: "1" } })).toBe("plain");
    expect(chooseRendererKind({ ...tty, env: { CI: "", TERM: "xterm" } })).toBe("ink");
  });

  it("prints plain lines on a dumb terminal", () => {
    expect(chooseRendererKind({ ...tty, env: { TERM: "dumb" } })).toBe("plain");
  });
});

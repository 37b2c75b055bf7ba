import { describe, expect, it } from "vitest";
import { editLine } from "../../../src/ui/line-edit.js";

describe("editing the inline answer", () => {
  it("types, pastes, erases and submits, also when several keys come in one chunk", () => {
    expect(editLine("", "Floats", {})).toEqual({ value: "Floats" });
    expect(editLine("Floats", " too\r", {})).toEqual({ value: "Floats too", submit: "Floats too" });
    expect(editLine("Floats too", "\x7f\x7f\x7f\x7f, please", {})).toEqual({ value: "Floats, please" });
    expect(editLine("ab", "", { backspace: true })).toEqual({ value: "a" });
    expect(editLine("a🙂", "", { delete: true })).toEqual({ value: "a" });
    expect(editLine("ab", "", { return: true })).toEqual({ value: "ab", submit: "ab" });
    expect(editLine("abc", "u", { ctrl: true })).toEqual({ value: "" });
  });

  it("ignores navigation and modified keys, and strips control characters from pasted text", () => {
    expect(editLine("ab", "", { leftArrow: true })).toEqual({ value: "ab" });
    expect(editLine("ab", "x", { meta: true })).toEqual({ value: "ab" });
    expect(editLine("", "a\x1b[31mb\tc\x07", {})).toEqual({ value: "ab  c" });
  });
});

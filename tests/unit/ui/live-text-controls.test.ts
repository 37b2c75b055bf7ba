import { describe, expect, it } from "vitest";
import { oneLine, stripControl } from "../../../src/ui/format.js";

// The live view and the plain lines drop what a terminal would act on from model text (show and report escape it).
describe("live text controls", () => {
  it("drops OSC 52, screen clears, C1 controls and bidi overrides, and keeps the words", () => {
    expect(stripControl("a\x1b]52;c;eA==\x07b\x1b[2Jc\x9b2Jd")).toBe("abc2Jd");
    expect(oneLine("invoice\u202egnp.exe \u2066x\u2069")).toBe("invoicegnp.exe x");
  });
});

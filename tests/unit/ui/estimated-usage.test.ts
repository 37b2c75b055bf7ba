import { describe, expect, it } from "vitest";
import { tokensLine } from "../../../src/ui/format.js";

describe("usage the server did not report", () => {
  it("is shown with ~; reported usage is not", () => {
    const u = { totalTokens: 1200, promptTokens: 1000, completionTokens: 200, calls: 2 };
    expect(tokensLine({ ...u, estimated: true })).toMatch(/^tokens ~1,200 /);
    expect(tokensLine(u)).toMatch(/^tokens 1,200 /);
  });
});

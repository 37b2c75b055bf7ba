import { describe, expect, it, vi } from "vitest";
import type { GateResult, YoloEvent } from "../../../src/events/schema.js";
import { gateHeadline } from "../../../src/ui/format.js";
import { createPlainRenderer } from "../../../src/ui/plain-renderer.js";
import { createTranscript } from "../../../src/ui/transcript.js";
import { base } from "./ink-fixtures.js";

const started = (scope?: Extract<YoloEvent, { type: "gate.started" }>["scope"]): YoloEvent => ({
  ...base,
  type: "gate.started",
  node: "tea",
  name: "test",
  command: "npm test",
  attempt: 1,
  ...(scope ? { scope } : {}),
});

describe("a monorepo gate's scope on one line", () => {
  it("the plain renderer says which workspaces a narrowed run covers, or why the whole suite runs; nothing outside a monorepo", () => {
    vi.stubEnv("TZ", "UTC");
    let out = "";
    const r = createPlainRenderer((s) => (out += s));
    r.onEvent(started({ kind: "changed", units: ["@x/api", "@x/web"] }));
    r.onEvent(started({ kind: "all", units: [], reason: "package-lock.json is outside every workspace" }));
    r.onEvent(started());
    vi.unstubAllEnvs();
    expect(out.split("\n").filter(Boolean)).toEqual([
      "12:00:30   running gate test: npm test… [changed: @x/api, @x/web]",
      "12:00:30   running gate test: npm test… [whole suite: package-lock.json is outside every workspace]",
      "12:00:30   running gate test: npm test…",
    ]);
  });

  it("a result's headline ends with what it covered", () => {
    const g: GateResult = {
      name: "test",
      command: "npm run test …",
      required: true,
      passed: true,
      exitCode: 0,
      timedOut: false,
      durationMs: 5,
      attempt: 1,
      passedCount: 2,
      failedCount: 0,
      failures: [],
      tail: "",
      logFile: null,
    };
    expect(gateHeadline({ ...g, scope: { kind: "changed", units: ["a", "b"] } })).toBe("test: PASS exit 0 (2 passed, 0 failed) · changed: a, b");
    expect(gateHeadline({ ...g, scope: { kind: "all", units: [], reason: "x" } })).toBe("test: PASS exit 0 (2 passed, 0 failed) · whole suite");
    expect(gateHeadline(g)).toBe("test: PASS exit 0 (2 passed, 0 failed)");
  });

  it("the transcript keeps the scope too", () => {
    const t = createTranscript();
    expect(t.push(started({ kind: "changed", units: ["core"] }))).toEqual(["  running gate test: npm test… [changed: core]"]);
  });
});

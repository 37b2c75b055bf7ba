import { describe, expect, it } from "vitest";
import { formatDuration, parseDuration } from "../../../src/config/duration.js";
import { resolveConfig } from "../../../src/config/resolve.js";
import { ConfigError } from "../../../src/errors.js";
import { cliFlagName } from "../../../src/cli/wording/flag-names.js";

describe("durations for --max-time and limits.maxTime", () => {
  it.each([
    ["90", 90_000],
    ["1.5", 1_500],
    ["90s", 90_000],
    ["45m", 2_700_000],
    ["1h30m", 5_400_000],
    ["2h", 7_200_000],
    ["500ms", 500],
    [" 1D ", 86_400_000],
  ])("%s is %d ms", (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(["", "0", "0s", "-5m", "5 minutes", "m", "1h 30m", "1e3", "10x"])("%j is refused", (text) => expect(parseDuration(text)).toBeNull());

  it("formats for messages", () => {
    expect([800, 45_000, 150_000, 3_900_000].map(formatDuration)).toEqual(["800ms", "45s", "2m 30s", "1h 5m"]);
  });

  it("resolves flag over file; a file number is seconds; bad values are reported with their name", () => {
    const base = { root: "/tmp/p", file: null, env: {} };
    expect(resolveConfig({ ...base, fileConfig: { limits: { maxTime: 60 } } }).limits.maxTimeMs).toBe(60_000);
    expect(resolveConfig({ ...base, fileConfig: { limits: { maxTime: "1h" } }, flags: { maxTime: "10m" } }).limits.maxTimeMs).toBe(600_000);
    expect(resolveConfig({ ...base, fileConfig: { limits: { maxSteps: 50 } }, flags: { maxSteps: 80 } }).limits.maxSteps).toBe(80);
    expect(resolveConfig({ ...base, fileConfig: {} }).limits.maxTimeMs).toBeNull();
    const bad = () => resolveConfig({ ...base, fileConfig: { limits: { maxTime: "soon" } }, flags: { maxTime: "later", maxSteps: 0 }, flagName: cliFlagName });
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow(/--max-time: .*"later"[\s\S]*limits\.maxTime: .*"soon"|--max-steps/);
  });
});

import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/resolve.js";
import { configSchema } from "../../../src/config/schema.js";
import { cliFlagName } from "../../../src/cli/wording/flag-names.js";

const resolve = (fileConfig: Record<string, unknown>, flags: Record<string, unknown> = {}) =>
  resolveConfig({ root: "/tmp/p", fileConfig, file: null, env: {}, flags, flagName: cliFlagName });

describe("parallel: stories built at the same time", () => {
  it("defaults to 3; the config file sets it; --parallel wins and is marked as given (a resume keeps the thread's value otherwise)", () => {
    expect(resolve({}).parallel).toBe(3);
    expect(resolve({}).parallelFromFlag).toBeUndefined();
    expect(resolve({ parallel: 1 }).parallel).toBe(1);
    expect(resolve({ parallel: 1 }, { parallel: 4 })).toMatchObject({ parallel: 4, parallelFromFlag: true });
  });

  it("refuses values that are not a whole number from 1 to 16, naming the flag or key", () => {
    expect(() => resolve({}, { parallel: 0 })).toThrow(/--parallel/);
    expect(() => resolve({}, { parallel: 17 })).toThrow(/--parallel/);
    expect(configSchema.safeParse({ parallel: 0 }).success).toBe(false);
    expect(configSchema.safeParse({ parallel: 2.5 }).success).toBe(false);
    expect(configSchema.safeParse({ parallel: 4 }).success).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { assertModelConfigured, resolveConfig } from "../../../src/config/resolve.js";
import { ConfigError } from "../../../src/errors.js";

const resolveWith = (fileConfig: object, flags: object = {}) => resolveConfig({ root: "/p", fileConfig, file: null, env: {}, flags });

describe("settings for CI runs", () => {
  it("branch: off by default, on from yolo.config.ts, and the flag wins either way", () => {
    expect(resolveWith({}).branch).toBe(false);
    expect(resolveWith({ branch: true }).branch).toBe(true);
    expect(resolveWith({ branch: true }, { branch: false }).branch).toBe(false);
    expect(resolveWith({}, { branch: true }).branch).toBe(true);
  });

  it("model.price: null unless configured; the currency defaults to USD", () => {
    expect(resolveWith({}).model.price).toBeNull();
    expect(resolveWith({ model: { price: { inputPerMillion: 1, outputPerMillion: 2 } } }).model.price).toEqual({
      inputPerMillion: 1,
      outputPerMillion: 2,
      currency: "USD",
    });
    expect(resolveWith({ model: { price: { inputPerMillion: 1, outputPerMillion: 2, currency: "EUR" } } }).model.price?.currency).toBe("EUR");
  });

  it("a replay needs neither an API key nor a base URL", () => {
    const cfg = resolveWith({});
    expect(() => assertModelConfigured(cfg)).toThrow(ConfigError);
    expect(() => assertModelConfigured(cfg, { replay: true })).not.toThrow();
  });
});

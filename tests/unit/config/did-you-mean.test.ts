import { describe, expect, it } from "vitest";
import { validateConfig } from "../../../src/config/validate-config.js";
import { ConfigError } from "../../../src/errors.js";

/** The problems validateConfig reports for a config value. */
function problems(value: unknown): string[] {
  try {
    validateConfig(value, "yolo.config.ts");
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("expected the config to be refused");
}

describe("an unknown key in yolo.config.ts names the key it most likely meant", () => {
  it("top level, nested objects, array items; a far-off key lists the known ones", () => {
    expect(problems({ modle: { name: "x" } })).toEqual(['modle: unknown key; did you mean "model"?']);
    expect(problems({ model: { nmae: "x" } })).toEqual(['model.nmae: unknown key; did you mean "name"?']);
    expect(problems({ model: { base_url: "http://x" } })).toEqual(['model.base_url: unknown key; did you mean "baseURL"?']);
    expect(problems({ gates: [{ name: "t", command: "npm test", requird: true }] })).toEqual(['gates[0].requird: unknown key; did you mean "required"?']);
    const far = problems({ colour: 1 });
    expect(far).toHaveLength(1);
    expect(far[0]).toMatch(/^colour: unknown key; known keys: .*\bmodel\b.*\bgates\b/);
  });
});

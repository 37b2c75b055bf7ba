import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/resolve.js";
import { configSchema } from "../../../src/config/schema.js";

const resolve = (model: Record<string, unknown>) => resolveConfig({ root: "/tmp/p", fileConfig: configSchema.parse({ model }), file: null, env: {} }).model;

describe("model.api and model.reasoningEffort", () => {
  it("pass through to the resolved config when set, and are absent (chat, the server's default) when not", () => {
    expect(resolve({ api: "responses", reasoningEffort: "low" })).toMatchObject({ api: "responses", reasoningEffort: "low" });
    expect(resolve({})).not.toHaveProperty("api");
    expect(resolve({})).not.toHaveProperty("reasoningEffort");
  });

  it("reject values the API does not have, naming the key", () => {
    const bad = configSchema.safeParse({ model: { api: "completions", reasoningEffort: "max" } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path.join("."))).toEqual(expect.arrayContaining(["model.api", "model.reasoningEffort"]));
  });

  it("a replay's recorded model is used only when nothing else names one", () => {
    const flags = { defaultModel: "qwen2.5-coder:7b" };
    expect(resolveConfig({ root: "/tmp/p", fileConfig: {}, file: null, env: {}, flags }).model.name).toBe("qwen2.5-coder:7b");
    expect(resolveConfig({ root: "/tmp/p", fileConfig: { model: { name: "gpt-4o" } }, file: null, env: {}, flags }).model.name).toBe("gpt-4o");
    expect(resolveConfig({ root: "/tmp/p", fileConfig: {}, file: null, env: { YOLO_MODEL: "llama3.1" }, flags }).model.name).toBe("llama3.1");
  });
});

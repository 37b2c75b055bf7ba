import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/resolve.js";
import { configSchema } from "../../../src/config/schema.js";

const resolve = (model: Record<string, unknown>) => resolveConfig({ root: "/tmp/p", fileConfig: configSchema.parse({ model }), file: null, env: {} }).model;

describe("model.callDeadlineS and model.maxReplyBytes", () => {
  it("default to 1800 s and 64 MB, and pass through when set", () => {
    expect(resolve({})).toMatchObject({ callDeadlineS: 1800, maxReplyBytes: 64 * 1024 * 1024 });
    expect(resolve({ callDeadlineS: 30, maxReplyBytes: 1_000_000 })).toMatchObject({ callDeadlineS: 30, maxReplyBytes: 1_000_000 });
  });

  it("reject a deadline of zero or a cap too small to hold any answer, naming the key", () => {
    const bad = configSchema.safeParse({ model: { callDeadlineS: 0, maxReplyBytes: 10 } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path.join("."))).toEqual(expect.arrayContaining(["model.callDeadlineS", "model.maxReplyBytes"]));
  });
});

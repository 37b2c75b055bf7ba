import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { createLogger, nullLogger } from "../../../src/log/logger.js";
import { tempDir } from "../../helpers/per-test.js";

const SECRET = "sk-test-4f9a8b7c6d5e";

let dir: string;
beforeEach(({ onTestFinished }) => {
  dir = tempDir(onTestFinished, "yolo-log-");
});

describe("createLogger", () => {
  it("never writes a secret value, whether in a message, an object or an error", () => {
    const file = join(dir, "logs", "run.log");
    const log = createLogger({ file, level: "debug", secrets: [SECRET, "", "short"] });
    log.info(`calling the model with key ${SECRET}`);
    log.info({ request: { url: "http://x", note: `Bearer ${SECRET}` }, apiKey: SECRET }, "request");
    log.debug({ headers: { authorization: "Bearer something-else" } }, "headers");
    log.error({ err: new Error(`401: invalid key ${SECRET}`) }, "provider failed");
    log.child({ key: SECRET }).warn("child");
    log.info({ nested: { quoted: `"${SECRET}"` } }, "quoted");
    log.flush();

    const bytes = readFileSync(file);
    expect(bytes.includes(Buffer.from(SECRET))).toBe(false);
    expect(bytes.includes(Buffer.from("something-else"))).toBe(false);
    const lines = bytes
      .toString("utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(6);
    expect(lines[0].msg).toBe("calling the model with key [redacted]");
    expect(lines[1].apiKey).toBe("[redacted]");
  });

  it("writes nothing to stdout", () => {
    const writes: unknown[] = [];
    const original = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: unknown) => (writes.push(chunk), true)) as typeof process.stdout.write;
    try {
      createLogger({ file: join(dir, "quiet.log") }).info("hello");
    } finally {
      process.stdout.write = original;
    }
    expect(writes).toEqual([]);
    expect(readFileSync(join(dir, "quiet.log"), "utf8")).toContain("hello");
  });

  it("offers a logger that discards everything", () => {
    expect(() => nullLogger().error("ignored")).not.toThrow();
  });
});

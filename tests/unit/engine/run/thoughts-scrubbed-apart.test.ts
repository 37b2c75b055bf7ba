import { afterAll, describe, expect, it } from "vitest";
import type { EventBody } from "../../../../src/events/schema.js";
import { scrubbedTokens } from "../../../../src/engine/run/token-scrub.js";
import { registerSecrets, scrubText } from "../../../../src/secrets/scrub.js";

const SECRET = "sk-live-4f9a0b7c2d11";
afterAll(() => registerSecrets([]));

/** A model's thinking and its answer are scrubbed as two streams: neither shows a secret cut across its pieces. */
describe("thought and token streams of one agent", () => {
  it("a secret cut across thought pieces is censored, the thinking goes out before the answer, and both end before the agent's next event", () => {
    registerSecrets([SECRET]);
    const out: EventBody[] = [];
    const emit = scrubbedTokens((b) => out.push(b));
    emit({ type: "thought", node: "dev", text: `the key ${SECRET.slice(0, 12)}` });
    emit({ type: "thought", node: "dev", text: `${SECRET.slice(12)} is secret; and sk-li` });
    emit({ type: "token", node: "dev", text: `Answer: ${SECRET.slice(0, 10)}` });
    emit({ type: "token", node: "dev", text: `${SECRET.slice(10)}.` });
    emit({ type: "node.completed", node: "dev", summary: "done" });
    expect(JSON.stringify(out)).not.toContain(SECRET);
    const types = out.map((b) => b.type);
    expect(types.lastIndexOf("thought")).toBeLessThan(types.indexOf("token"));
    expect(types.at(-1)).toBe("node.completed");
    const text = (type: string) => out.flatMap((b) => (b.type === type && "text" in b ? [b.text] : [])).join("");
    expect(text("thought")).toBe(scrubText(`the key ${SECRET} is secret; and sk-li`));
    expect(text("token")).toBe(scrubText(`Answer: ${SECRET}.`));
  });
});

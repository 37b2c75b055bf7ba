import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { runEngine } from "../helpers/engine.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach();

// A model (hostile, or echoing what it read) streams a secret of the environment a few characters at a time, slowly
// enough (100 ms apart) that the pieces arrive in separate token events: joined, as the live view and --verbose show them, the
// token text must hold the censor and none of the secret.
describe("a secret streamed in pieces", () => {
  it("never reaches the token events, however it is split", async () => {
    const secret = `cnry${randomBytes(12).toString("hex")}`;
    const content = `The deploy key is ${secret} and that is all.`;
    const project = makeProject();
    const mock = await startMockOpenAI(() => ({ content, contentChunks: Math.ceil(content.length / 3), contentRate: 10 }));
    cleanups.push(project.cleanup, () => mock.close());

    const { result, events } = await runEngine({
      root: project.root,
      baseURL: mock.url,
      threadId: "t-stream-secret",
      requirement: "What is the deploy key?",
      profile: { mode: "chat" },
      env: { DEPLOY_SECRET: secret },
    });
    expect(result.status).toBe("passed");
    const tokens = events.filter((e) => e.type === "token").map((e) => (e as { text: string }).text);
    // The pieces really came apart: the secret was cut over several token events.
    expect(tokens.length).toBeGreaterThan(2);
    expect(tokens.join("")).toBe("The deploy key is [redacted] and that is all.");
    expect(JSON.stringify(events)).not.toContain(secret.slice(0, 12));
  });
});

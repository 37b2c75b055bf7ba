import { afterEach, describe, expect, it } from "vitest";
import { analystDone, call, director, pmDone } from "../helpers/director.js";
import { runEngine } from "../helpers/engine.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const BIG = `${"lorem ipsum dolor sit amet ".repeat(220)}\n`;

describe("the summarizer's non-streamed request answered with a body that is not a completion", () => {
  it.each([
    ["an HTML page", { body: "<html><body>Gateway login</body></html>", contentType: "text/html" }],
    ["JSON without choices", { body: '{"detail":"upstream busy"}', contentType: "application/json" }],
  ])("%s: the run ends as a provider error (exit 5), not an internal error", async (_label, raw) => {
    const project = makeProject(Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`docs/big${i}.txt`, BIG])));
    const mock = await startMockOpenAI(
      director({
        analyst: [analystDone],
        pm: [pmDone(false)],
        dev: Array.from({ length: 6 }, (_, i) => call("read_file", { path: `docs/big${i}.txt` })),
        summarizer: [{ raw }],
      }),
    );
    cleanups.push(project.cleanup, () => mock.close());
    const { result } = await runEngine({
      root: project.root,
      baseURL: mock.url,
      threadId: "t-bad-summary",
      requirement: "Add add()",
      config: { context: { contextWindows: { "gpt-4o-mini": 4_000 } } },
    });
    expect(result).toMatchObject({ status: "provider_error", exitCode: 5 });
    expect(result.reason).toMatch(/did not answer like an OpenAI-compatible API: the server answered HTTP 200 with a body that is not a model reply/);
    // The summary request was non-streamed and sent once: the same server answers the same way.
    expect(mock.requests.filter((r) => r.body.stream !== true)).toHaveLength(1);
  });
});

import { describe, expect, it } from "vitest";
import { SUMMARY_HEADING } from "../../src/middleware/summarization.js";
import { analystDone, BAD_ADD, call, devWrites, director, GOOD_ADD, pmDone, teaSays, type Turn } from "../helpers/director.js";
import { nodesStarted, runEngine } from "../helpers/engine.js";
import { startMockOpenAI, type RecordedRequest } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach();

const WINDOW = 8_000;
const THRESHOLD = WINDOW * 0.7;
/** About 1,500 tokens a read. */
const BIG = `${"lorem ipsum dolor sit amet ".repeat(220)}\n`;
const READS_PER_ATTEMPT = 8;

/** A rough token size of what was sent, in the same four-characters-a-token measure the middleware uses. */
function sentTokens(req: RecordedRequest): number {
  return req.messages.reduce((n, m) => n + Math.ceil((String(m.content ?? "").length + (m.tool_calls ? JSON.stringify(m.tool_calls).length : 0)) / 4) + 4, 0);
}

/** Every tool message answers a call of the assistant message before it. */
function pairsIntact(req: RecordedRequest): boolean {
  return req.messages.every((m, i) => {
    if (m.role !== "tool") return true;
    let j = i - 1;
    while (j >= 0 && req.messages[j].role === "tool") j--;
    return j >= 0 && (req.messages[j].tool_calls ?? []).some((c: { id: string }) => c.id === m.tool_call_id);
  });
}

function attempt(content: string): Turn[] {
  return [...Array.from({ length: READS_PER_ATTEMPT }, (_, i) => call("read_file", { path: `docs/big${i}.txt` })), ...devWrites(content)];
}

describe("summarization in a long fix loop", () => {
  it("keeps every dev request under the threshold through two fix attempts, with summaries instead of old turns", async () => {
    const project = makeProject(Object.fromEntries(Array.from({ length: READS_PER_ATTEMPT }, (_, i) => [`docs/big${i}.txt`, BIG])));
    const dir = director({
      analyst: [analystDone],
      pm: [pmDone(false)],
      dev: [...attempt(BAD_ADD), ...attempt(BAD_ADD), ...attempt(GOOD_ADD)],
      tea: [teaSays("PASS"), teaSays("PASS"), teaSays("PASS")],
      summarizer: Array.from({ length: 30 }, (_, i) => ({ content: `Read docs/big*.txt (lorem ipsum), summary ${i}.` })),
    });
    const mock = await startMockOpenAI(dir);
    cleanups.push(project.cleanup, () => mock.close());

    const { result, events } = await runEngine({
      root: project.root,
      baseURL: mock.url,
      threadId: "t-long",
      requirement: "Add add()",
      config: { context: { contextWindows: { "gpt-4o-mini": WINDOW } } },
    });
    expect(result, JSON.stringify([result, events.filter((e) => e.type === "error")])).toMatchObject({ status: "passed", exitCode: 0 });
    expect(nodesStarted(events)).toEqual(["analyst", "pm", "dev", "tea", "dev", "tea", "dev", "tea"]);

    const devRequests = mock.requests.filter((r) => JSON.stringify(r.messages[0]).includes("You are the dev agent"));
    expect(devRequests).toHaveLength(3 * (READS_PER_ATTEMPT + 2));
    // Without summarization the last request of an attempt would carry every read.
    expect(READS_PER_ATTEMPT * (BIG.length / 4)).toBeGreaterThan(THRESHOLD * 1.5);
    for (const r of devRequests) {
      expect(sentTokens(r)).toBeLessThanOrEqual(THRESHOLD);
      expect(pairsIntact(r)).toBe(true);
    }
    expect(devRequests.some((r) => JSON.stringify(r.messages).includes(SUMMARY_HEADING))).toBe(true);
    // Each compaction keeps the system layers as they were.
    const systems = (r: RecordedRequest) => r.messages.filter((m) => m.role === "system").map((m) => m.content);
    expect(systems(devRequests.at(-1)!)).toEqual(systems(devRequests[devRequests.length - 1 - (READS_PER_ATTEMPT + 1)]));
    const summaries = dir.served.filter((role) => role === "summarizer").length;
    expect(summaries).toBeGreaterThanOrEqual(3);
    // The summary calls are counted like any other.
    const usage = events.filter((e) => e.type === "usage" && e.node === "dev");
    expect(usage).toHaveLength(devRequests.length + summaries);
    // Each summary is announced: agent, estimated tokens before and after, the threshold, right after its usage.
    const summarized = events.filter((e) => e.type === "context.summarized");
    expect(summarized).toHaveLength(summaries);
    for (const e of summarized) {
      expect(e).toMatchObject({ type: "context.summarized", node: "dev", agent: "dev", threshold: THRESHOLD });
      if (e.type !== "context.summarized") continue;
      expect(e.tokensBefore).toBeGreaterThan(THRESHOLD);
      expect(e.tokensAfter).toBeLessThan(e.tokensBefore);
      expect(e.replacedMessages).toBeGreaterThan(0);
      expect(events[events.indexOf(e) - 1]).toMatchObject({ type: "usage", node: "dev" });
    }
  });
});

import { describe, expect, it } from "vitest";
import { agentOf, canonicalJson, comparable, firstDifference, maskVolatile, normalizeRequest } from "../../../src/llm/recording-match.js";

const ctx = { root: "/tmp/yolo-proj-abc", threadId: "k3f9x2ab" };

function request(messages: unknown[], extra: Record<string, unknown> = {}) {
  return { model: "gpt-4o-mini", stream: true, tools: [{ type: "function", function: { name: "handoff" } }], messages, ...extra };
}

describe("what counts as the same model request", () => {
  it("records the project root as <root> and the thread id as <thread>, everywhere in the body", () => {
    const body = request([
      { role: "system", content: "You are the dev agent in yolo" },
      { role: "tool", content: "not ok 1 - adds\n  at file:///tmp/yolo-proj-abc/test/add.test.js:5:3\nlog .yolo/threads/k3f9x2ab/gates" },
    ]);
    const normalized = normalizeRequest(body, ctx) as ReturnType<typeof request>;
    expect(JSON.stringify(normalized)).not.toContain("/tmp/yolo-proj-abc");
    expect((normalized.messages[1] as { content: string }).content).toBe(
      "not ok 1 - adds\n  at file://<root>/test/add.test.js:5:3\nlog .yolo/threads/<thread>/gates",
    );
  });

  it("leaves words that merely contain the thread id alone", () => {
    const normalized = normalizeRequest({ messages: [{ role: "user", content: "xk3f9x2ab k3f9x2ab" }] }, ctx) as { messages: { content: string }[] };
    expect(normalized.messages[0].content).toBe("xk3f9x2ab <thread>");
  });

  it("masks durations and clock times that change on every run", () => {
    expect(maskVolatile("✔ adds (0.8123ms)\nℹ duration_ms 41.2\nTime: 1.25 s\nStart at 12:03:44")).toBe(
      "✔ adds (<duration>)\nℹ duration_ms <duration>\nTime: <duration>\nStart at <time>",
    );
    expect(maskVolatile("2 passed, 0 failed")).toBe("2 passed, 0 failed");
  });

  it("compares only the last lines of a cut gate output tail, wherever its 2 KB window starts", () => {
    const lines = Array.from({ length: 40 }, (_, i) => `not ok ${i} - case ${i} (${i}.5ms)`);
    const fenced = (body: string) => `### test FAILED\n<data source="output of \`npm test\` (tail)">\n\`\`\`\n${body}\n\`\`\`\n</data>\nafter`;
    const a = maskVolatile(fenced(lines.join("\n").slice(7)));
    const b = maskVolatile(fenced(lines.join("\n").slice(40)));
    expect(a).toBe(b);
    expect(a).toContain("<cut>\nnot ok 25 - case 25 (<duration>)");
    expect(a.endsWith("not ok 39 - case 39 (<duration>)\n```\n</data>\nafter")).toBe(true);
    // A change in the last lines still counts.
    expect(maskVolatile(fenced(lines.join("\n").replace("case 39", "case 99")))).not.toBe(a);
  });

  it("compares command output cut in the middle by what follows the omission marker's last lines, not the byte count", () => {
    const rest = Array.from({ length: 30 }, (_, i) => `line ${i}`).join("\n");
    expect(maskVolatile(`head\n[… 1234 bytes omitted …]\n${rest.slice(3)}`)).toBe(maskVolatile(`head\n[… 1250 bytes omitted …]\n${rest.slice(9)}`));
  });

  it("compares model, messages and tools only, with object keys in any order", () => {
    const a = request([{ role: "user", content: "hi" }], { temperature: 0.2, stream_options: { include_usage: true } });
    const b = { messages: [{ content: "hi", role: "user" }], tools: a.tools, model: "gpt-4o-mini", temperature: 0.9 };
    expect(canonicalJson(comparable(a))).toBe(canonicalJson(comparable(b)));
    expect(canonicalJson(comparable(a))).not.toBe(canonicalJson(comparable({ ...b, model: "other" })));
  });

  it("names the first difference: message index and role, field, character offset and both excerpts", () => {
    const recorded = comparable(
      request([
        { role: "system", content: "You are the dev agent" },
        { role: "user", content: "Add an add(a, b) function" },
      ]),
    );
    const now = comparable(
      request([
        { role: "system", content: "You are the dev agent" },
        { role: "user", content: "Add a subtract function" },
      ]),
    );
    expect(firstDifference(recorded, now)).toBe(
      'messages[1] (user).content differs at character 5: recorded "Add an add(a, b) function", now "Add a subtract function"',
    );
    expect(firstDifference(recorded, recorded)).toBeNull();
  });

  it("names a different model, and a conversation that got longer", () => {
    const base = request([{ role: "user", content: "x" }]);
    expect(firstDifference(comparable(base), comparable({ ...base, model: "llama3" }))).toBe(
      'model differs at character 0: recorded "gpt-4o-mini", now "llama3"',
    );
    const longer = request([
      { role: "user", content: "x" },
      { role: "tool", content: "y" },
    ]);
    expect(firstDifference(comparable(base), comparable(longer))).toBe("messages has 1 entries in the recording and 2 now (now has a tool message at [1])");
  });

  it("reads the asking agent from the first system message", () => {
    expect(agentOf(request([{ role: "system", content: "You are the tea agent in yolo" }]))).toBe("tea");
    expect(agentOf(request([{ role: "user", content: "hi" }]))).toBeNull();
  });
});

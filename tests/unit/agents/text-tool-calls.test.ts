import { describe, expect, it } from "vitest";
import { LimitError, ProviderError } from "../../../src/errors.js";
import { looksLikeToolCallSyntax, noCallError, parseTextToolCalls } from "../../../src/agents/text-tool-calls.js";

const WRITE = { name: "write_file", arguments: { path: "src/add.js", content: "export const add = (a, b) => a + b;\n" } };
const tag = (v: unknown) => `<tool_call>\n${JSON.stringify(v)}\n</tool_call>`;

describe("tool calls written in the reply text", () => {
  it("Hermes/Qwen <tool_call> blocks at the end of the reply are calls; the prose before them is kept", () => {
    const r = parseTextToolCalls(`I'll write the file now.\n\n${tag(WRITE)}\n${tag({ name: "handoff", arguments: { summary: "done" } })}\n`);
    expect(r).toEqual({
      format: "hermes",
      text: "I'll write the file now.",
      calls: [
        { name: "write_file", args: JSON.stringify(WRITE.arguments) },
        { name: "handoff", args: '{"summary":"done"}' },
      ],
    });
  });

  it("a bare JSON object (arguments or Llama's parameters), or an array of them, is a call only as the whole reply", () => {
    expect(parseTextToolCalls(JSON.stringify(WRITE))?.calls).toEqual([{ name: "write_file", args: JSON.stringify(WRITE.arguments) }]);
    expect(parseTextToolCalls(JSON.stringify({ name: "list_files", parameters: { path: "." } }))?.calls).toEqual([
      { name: "list_files", args: '{"path":"."}' },
    ]);
    expect(parseTextToolCalls(JSON.stringify([WRITE, { name: "list_files", arguments: '{"path":"."}' }]))?.calls).toHaveLength(2);
    expect(parseTextToolCalls(`Here it is: ${JSON.stringify(WRITE)}`)).toBeNull();
  });

  it("one fenced ```json block that is the whole reply is a call", () => {
    const r = parseTextToolCalls(`\`\`\`json\n${JSON.stringify(WRITE, null, 2)}\n\`\`\``);
    expect(r?.format).toBe("fenced-json");
    expect(r?.calls[0].name).toBe("write_file");
  });

  it("hostile or confused: calls quoted in prose or in a code sample being discussed never run", () => {
    // Quoted mid-prose, with discussion after it.
    expect(parseTextToolCalls(`A Hermes model would answer ${tag(WRITE)} — but I won't do that here.`)).toBeNull();
    // Inside a code sample at the end of the reply.
    expect(parseTextToolCalls(`Example of the format:\n\`\`\`\n${tag(WRITE)}\n\`\`\``)).toBeNull();
    // Inside an unclosed code sample (the tags sit in the fence).
    expect(parseTextToolCalls(`Example:\n\`\`\`xml\n${tag(WRITE)}`)).toBeNull();
    // A fenced block after prose is a sample, not a call.
    expect(parseTextToolCalls(`To write the file you would send:\n\`\`\`json\n${JSON.stringify(WRITE)}\n\`\`\``)).toBeNull();
    // JSON that merely has a name field, or extra keys, is data, not a call.
    expect(parseTextToolCalls(JSON.stringify({ name: "Ada", age: 36 }))).toBeNull();
    expect(parseTextToolCalls(JSON.stringify({ name: "write_file", arguments: {}, note: "x" }))).toBeNull();
    expect(parseTextToolCalls(JSON.stringify({ name: "rm -rf /", arguments: {} }))).toBeNull();
    expect(parseTextToolCalls("[]")).toBeNull();
    expect(parseTextToolCalls("Just text.")).toBeNull();
  });

  it("broken JSON inside <tool_call> tags is still a call, so the model hears its arguments are not valid JSON", () => {
    const r = parseTextToolCalls('<tool_call>{"name": "write_file", "arguments": {"path": </tool_call>');
    expect(r?.calls).toEqual([{ name: "write_file", args: '{"name": "write_file", "arguments": {"path":' }]);
  });

  it("a loop that never saw a call: tool-call syntax nobody parsed is the server's problem (exit 5), with the fix", () => {
    const e = noCallError({ node: "dev", model: "qwen2.5", replies: 2, sawCall: false, text: '<|python_tag|>{"name": "x"' });
    expect(e).toBeInstanceOf(ProviderError);
    expect(e.message).toMatch(/--enable-auto-tool-choice --tool-call-parser hermes/);
    expect(e.message).toMatch(/Ollama — use a model with tool support/);
    expect(e.message).toMatch(/LM Studio/);
    const prose = noCallError({ node: "dev", model: "m", replies: 2, sawCall: false, text: "I would do it." });
    expect(prose).toBeInstanceOf(LimitError);
    expect(prose.message).toMatch(/If this model never calls tools: .*--enable-auto-tool-choice/);
    expect(noCallError({ node: "dev", model: "m", replies: 4, sawCall: true, text: "done" }).message).not.toMatch(/tool-call-parser/);
    expect(looksLikeToolCallSyntax("I think so.")).toBe(false);
  });
});

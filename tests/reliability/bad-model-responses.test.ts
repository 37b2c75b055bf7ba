import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { runAgentLoop } from "../../src/agents/runner.js";
import { LimitError } from "../../src/errors.js";
import { createChatModel } from "../../src/llm/model.js";
import { TOOLS } from "../../src/tools/registry.js";
import type { ToolContext } from "../../src/tools/types.js";
import { startMockOpenAI, type MockOpenAI, type ScriptedReply } from "../helpers/mock-openai.js";

// 1,000 generated bad model responses, through the real ChatOpenAI client and the real agent loop and tools.
// Each must end as a tool error fed back to the model, a reminder, or a clean typed failure (LimitError): never a crash.

const TOTAL = 1000;
const PER_AGENT = 25;

// A small deterministic generator, so a failure is reproducible.
function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

const KINDS = [
  "invalid-json",
  "truncated-json",
  "unknown-tool",
  "near-miss-name",
  "wrong-types",
  "huge-args",
  "empty-reply",
  "duplicate-ids",
  "array-args",
  "mixed-valid-invalid",
  "null-args",
  "nested-garbage",
  "bad-handoff",
  "empty-name",
] as const;

function badReply(kind: (typeof KINDS)[number], i: number, r: () => number): ScriptedReply {
  const n = `${i}-${Math.floor(r() * 1e6)}`;
  switch (kind) {
    case "invalid-json":
      return { toolCalls: [{ name: "read_file", args: `{path: 'src/${n}.ts'` }] };
    case "truncated-json":
      return { toolCalls: [{ name: "write_file", args: `{"path": "src/${n}.ts", "content": "export const x = ` }] };
    case "unknown-tool":
      return { toolCalls: [{ name: `delete_everything_${n}`, args: { all: true } }] };
    case "near-miss-name":
      return { toolCalls: [{ name: ["read_files", "Read_File", "write-file", "editfile", "runCommand", "hand_off"][i % 6], args: { path: `x${n}` } }] };
    case "wrong-types":
      return { toolCalls: [{ name: "write_file", args: { path: Number(n.split("-")[0]), content: null } }] };
    case "huge-args":
      return { toolCalls: [{ name: "write_file", args: { path: `${"a".repeat(5000)}/${n}`, content: "x".repeat(40_000) } }] };
    case "empty-reply":
      return { content: "" };
    case "duplicate-ids":
      return {
        toolCalls: [
          { name: "list_files", args: { path: `d${n}` }, id: "call_dup" },
          { name: "read_file", args: { path: `d${n}` }, id: "call_dup" },
        ],
      };
    case "array-args":
      return { toolCalls: [{ name: "read_file", args: `["src/${n}.ts"]` }] };
    case "mixed-valid-invalid":
      return {
        toolCalls: [
          { name: "list_files", args: { path: "." } },
          { name: "read_file", args: `{"path": ` },
          { name: "nope", args: {} },
        ],
      };
    case "null-args":
      return { toolCalls: [{ name: "search_files", args: "null" }] };
    case "nested-garbage":
      return { toolCalls: [{ name: "edit_file", args: { path: { $ne: n }, old_string: [1, 2], new_string: { deep: { er: n } } } }] };
    case "bad-handoff":
      return { toolCalls: [{ name: "handoff", args: { summary: Number(n.split("-")[0]) } }] };
    case "empty-name":
      return { toolCalls: [{ name: "", args: `{"x":"${n}"}` }] };
  }
}

let mock: MockOpenAI;
let root: string;
const queue: ScriptedReply[] = [];

beforeAll(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yolo-bad-")));
  fs.mkdirSync(path.join(root, "src"));
  fs.writeFileSync(path.join(root, "src", "a.ts"), "export const a = 1;\n");
  mock = await startMockOpenAI(() => queue.shift() ?? { content: "" });
});
afterAll(async () => {
  await mock.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe("bad model responses", () => {
  it(`${TOTAL} generated bad responses: zero crashes`, async () => {
    const r = rng(8);
    const schema = z.object({ summary: z.string() });
    const ctx: ToolContext = { root, commandTimeoutS: 5, outputCapBytes: 4096, readCapBytes: 4096, env: {}, secretEnvNames: [] };
    const outcomes = { handedOff: 0, limit: 0, crashes: [] as string[], toolErrors: 0, byKind: {} as Record<string, number> };
    for (let start = 0; start < TOTAL; start += PER_AGENT) {
      for (let i = start; i < Math.min(TOTAL, start + PER_AGENT); i++) {
        const kind = KINDS[Math.floor(r() * KINDS.length)];
        outcomes.byKind[kind] = (outcomes.byKind[kind] ?? 0) + 1;
        queue.push(badReply(kind, i, r));
      }
      queue.push({ toolCalls: [{ name: "handoff", args: { summary: "done" } }] });
      const model = createChatModel({ name: "mock-model", baseURL: mock.url, apiKey: "k", temperature: null, maxRetries: 0, timeoutS: 10 });
      try {
        await runAgentLoop({
          node: "dev",
          model,
          messages: [new SystemMessage("You are the dev agent."), new HumanMessage("go")],
          tools: Object.values(TOOLS),
          handoff: { schema, jsonSchema: z.toJSONSchema(schema) as Record<string, unknown> },
          toolContext: ctx,
          maxTurns: PER_AGENT + 5,
          maxReminders: PER_AGENT,
          emit: () => {},
          record: (entry) => {
            if (entry.role === "tool" && entry.ok === false) outcomes.toolErrors++;
          },
          classifyError: () => null,
        });
        outcomes.handedOff++;
      } catch (error) {
        if (error instanceof LimitError) outcomes.limit++;
        else outcomes.crashes.push(String((error as Error).stack ?? error));
      }
      queue.length = 0;
    }
    expect(outcomes.crashes).toEqual([]);
    expect(outcomes.handedOff + outcomes.limit).toBe(TOTAL / PER_AGENT);
    expect(outcomes.toolErrors).toBeGreaterThan(TOTAL / 2);
    expect(Object.keys(outcomes.byKind)).toHaveLength(KINDS.length);
    // Nothing a bad call asked for was written.
    expect(fs.readdirSync(path.join(root, "src"))).toEqual(["a.ts"]);
    console.log(
      `bad-model-responses: ${TOTAL} responses, ${outcomes.toolErrors} tool errors, ${outcomes.handedOff} agents handed off, ${outcomes.limit} typed limit stops, 0 crashes`,
    );
  }, 180_000);
});

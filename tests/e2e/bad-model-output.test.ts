import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeResult, parseEvents, runYolo } from "../helpers/cli.js";
import { analystDone, call, devWrites, director, GOOD_ADD, handoff, pmDone, teaSays } from "../helpers/director.js";
import { lastToolResults, roleOf, startMockOpenAI, type RecordedRequest } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach("lastFirst");

// What the model reads after its previous turn: tool results, or the reminder when it called no tool.
function feedback(req: RecordedRequest): string {
  const tools = lastToolResults(req);
  if (tools.length) return tools.map((m) => String(m.content)).join("\n");
  const last = req.messages.at(-1);
  return last?.role === "user" ? String(last.content) : "";
}

describe("bad model output goes back to the model as a tool error and the run carries on", () => {
  it("survives invalid JSON, an unknown tool, wrong argument types, incomplete handoffs and a reply without a tool call", async () => {
    const project = makeProject();
    const mock = await startMockOpenAI(
      director({
        analyst: [analystDone],
        pm: [handoff({ needs_architecture: false }), pmDone(false)],
        dev: [
          { toolCalls: [{ name: "write_file", args: '{"path": ' }] },
          { toolCalls: [{ name: "write_file", args: '{"path": "src/add.js" "content": "x"}' }] },
          call("delete_everything", { path: "src" }),
          call("read_file", { path: 42 }),
          handoff({ summary: "done" }),
          { content: "I think I'm done." },
          ...devWrites(GOOD_ADD),
        ],
        tea: [teaSays("PASS")],
      }),
    );
    cleanups.push(project.cleanup, () => mock.close());
    const root = project.root;

    const r = await runYolo(["run", "--json", "Add an add(a, b) function to src/add.js"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(readFileSync(join(root, "src/add.js"), "utf8")).toBe(GOOD_ADD);

    const pm = mock.requests.filter((q) => roleOf(q) === "pm");
    expect(pm).toHaveLength(2);
    expect(feedback(pm[1])).toMatch(/^Error: handoff arguments are invalid: .*stories/);

    const dev = mock.requests.filter((q) => roleOf(q) === "dev");
    expect(dev).toHaveLength(8);
    // Cut-off JSON is parsed strictly from the raw stream, never leniently completed.
    expect(feedback(dev[1])).toMatch(/^Error: the arguments of write_file are not valid JSON/);
    expect(feedback(dev[2])).toMatch(/^Error: the arguments of write_file are not valid JSON/);
    expect(feedback(dev[3])).toMatch(/^Error: there is no tool named "delete_everything"/);
    expect(feedback(dev[3])).toContain("write_file");
    expect(feedback(dev[4])).toMatch(/^Error: read_file arguments are invalid: path: /);
    expect(feedback(dev[5])).toMatch(/^Error: handoff arguments are invalid: .*files_changed/);
    expect(feedback(dev[6])).toMatch(/without calling a tool/);
    expect(feedback(dev[7])).not.toMatch(/^Error/);

    // Every tool result the provider sees answers a call it made, so a strict server would accept the history.
    for (const req of dev.slice(1)) {
      const assistant = req.messages.filter((m) => m.role === "assistant");
      const callIds = new Set(assistant.flatMap((m) => (m.tool_calls ?? []).map((c: { id: string }) => c.id)));
      for (const t of req.messages.filter((m) => m.role === "tool")) expect(callIds.has(t.tool_call_id)).toBe(true);
    }

    const events = parseEvents(r.stdout);
    const failed = events.flatMap((e) => (e.type === "tool.result" && !e.ok ? [`${e.node}:${e.tool}`] : []));
    expect(failed).toEqual(["pm:handoff", "dev:write_file", "dev:write_file", "dev:delete_everything", "dev:read_file", "dev:handoff"]);
    expect(events.at(-1)).toMatchObject({ type: "run.completed", status: "passed", exitCode: 0 });
  });

  // LangChain parses streamed arguments as *partial* JSON, so arguments cut off mid-string (a model at its output
  // limit) would be "completed" and executed; yolo re-parses the raw text strictly.
  it("does not execute a write whose JSON arguments were cut off mid-string", async () => {
    const project = makeProject();
    const truncated = '{"path": "src/cut.js", "content": "export function add(a, b) {\\n  ret';
    const mock = await startMockOpenAI(
      director({
        analyst: [analystDone],
        pm: [pmDone(false)],
        dev: [{ toolCalls: [{ name: "write_file", args: truncated }] }, ...devWrites(GOOD_ADD)],
        tea: [teaSays("PASS")],
      }),
    );
    cleanups.push(project.cleanup, () => mock.close());

    const r = await runYolo(["run", "--json", "Add an add(a, b) function to src/add.js"], { cwd: project.root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const dev = mock.requests.filter((q) => roleOf(q) === "dev");
    expect(feedback(dev[1])).toMatch(/^Error: the arguments of write_file are not valid JSON/);
    expect(existsSync(join(project.root, "src/cut.js"))).toBe(false);
  });
});

import { fileURLToPath } from "node:url";
import { describe, it } from "vitest";
import { describeResult, runYolo } from "../helpers/cli.js";
import { startMockOpenAI, type RecordedRequest, type ScriptedReply } from "../helpers/mock-openai.js";
import { mockWith, project } from "../helpers/per-test.js";
import { closedPort } from "../helpers/closed-port.js";

const PING = "yolo_doctor_ping";
// A model that calls the ping tool, then answers its result.
const healthy = (req: RecordedRequest): ScriptedReply =>
  req.messages.some((m) => m.role === "tool") ? { content: "done" } : { toolCalls: [{ name: PING, args: { value: "pong" } }] };

type Check = { id: string; status: string; detail: string; fix?: string };
const checks = (stdout: string) => JSON.parse(stdout) as { ok: boolean; checks: Check[] };
const byId = (stdout: string, id: string) => checks(stdout).checks.find((c) => c.id === id);

describe.concurrent("yolo doctor", { timeout: 180_000 }, () => {
  it("MCP servers: a working one is listed with its tools, a broken required one fails naming its stderr, an optional one warns", async ({
    expect,
    onTestFinished,
  }) => {
    const mock = await mockWith(onTestFinished, healthy);
    const everything = fileURLToPath(new URL("../../node_modules/.bin/mcp-server-everything", import.meta.url));
    const mcp = {
      mcpServers: {
        everything: { command: everything },
        broken: { command: "sh", args: ["-c", "echo 'cannot open the tracker database' >&2; exit 3"] },
        maybe: { command: "sh", args: ["-c", "exit 4"], optional: true },
      },
    };
    const cwd = project(onTestFinished, { ".mcp.json": JSON.stringify(mcp) });
    const r = await runYolo(["doctor", "--json"], { cwd, baseURL: mock.url, env: { YOLO_MODEL: "mock-model", YOLO_SANDBOX: "off" } });
    expect(r.exitCode, describeResult(r)).toBe(1);
    expect(byId(r.stdout, "mcp:everything")).toMatchObject({ status: "ok", detail: expect.stringMatching(/^\d+ tools over stdio/) });
    expect(byId(r.stdout, "mcp:broken")).toMatchObject({ status: "fail", detail: expect.stringContaining("cannot open the tracker database") });
    expect(byId(r.stdout, "mcp:maybe")?.status).toBe("warn");
  });

  it("healthy endpoint: every model check ok, a table, exit 0", async ({ expect, onTestFinished }) => {
    const mock = await mockWith(onTestFinished, healthy);
    const cwd = project(onTestFinished);
    const r = await runYolo(["doctor"], { cwd, baseURL: mock.url, env: { YOLO_MODEL: "mock-model", YOLO_SANDBOX: "off" } });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(r.stdout).toMatch(/^ok {4}endpoint reachable +http:\/\/127\.0\.0\.1:\d+\/v1 answers/m);
    expect(r.stdout).toMatch(/^ok {4}tool-call round trip +a native tool call, and an answer to its result/m);
    expect(r.stdout).toMatch(/A run can work with this setup\./);
    // The round trip: the second request carries the tool's result.
    expect(mock.requests).toHaveLength(2);
    expect(mock.requests[1].messages.at(-1)).toMatchObject({ role: "tool" });

    const j = await runYolo(["doctor", "--json"], { cwd, baseURL: mock.url, env: { YOLO_MODEL: "mock-model", YOLO_SANDBOX: "off" } });
    expect(j.exitCode, describeResult(j)).toBe(0);
    const report = checks(j.stdout);
    expect(report.ok).toBe(true);
    expect(report.checks.map((c) => c.id)).toEqual(["endpoint", "key", "model", "tools", "usage", "context", "sandbox", "git", "database", "gates"]);
    expect(byId(j.stdout, "usage")?.status).toBe("ok");
    expect(byId(j.stdout, "context")).toMatchObject({ status: "warn", detail: expect.stringMatching(/unknown for "mock-model"/) });
    // The README's Ollama example model is in the built-in table, though its window equals the fallback's.
    const q = await runYolo(["doctor", "--json"], { cwd, baseURL: mock.url, env: { YOLO_MODEL: "qwen2.5-coder:14b", YOLO_SANDBOX: "off" } });
    expect(byId(q.stdout, "context")).toMatchObject({ status: "ok", detail: '32768 tokens (built in for "qwen2.5-coder:14b")' });
  });

  it("401: the key check fails, naming the variable; exit 1", async ({ expect, onTestFinished }) => {
    const mock = await mockWith(onTestFinished, () => ({ status: 401 }));
    const r = await runYolo(["doctor", "--json"], {
      cwd: project(onTestFinished),
      baseURL: mock.url,
      env: { YOLO_MODEL: "mock-model", OPENAI_API_KEY: "sk-wrong" },
    });
    expect(r.exitCode, describeResult(r)).toBe(1);
    expect(byId(r.stdout, "key")).toMatchObject({ status: "fail", fix: expect.stringContaining("OPENAI_API_KEY") });
    expect(byId(r.stdout, "tools")?.status).toBe("skip");
    expect(r.stdout).not.toContain("sk-wrong");
  });

  it("unknown model: not listed, and refused (404) when asked for: fails with the listed models named; exit 1", async ({ expect, onTestFinished }) => {
    const mock = await mockWith(onTestFinished, () => ({ status: 404 }));
    const r = await runYolo(["doctor"], { cwd: project(onTestFinished), baseURL: mock.url, env: { YOLO_MODEL: "qwen-typo" } });
    expect(r.exitCode, describeResult(r)).toBe(1);
    expect(r.stdout).toMatch(
      /^FAIL {2}model exists +"qwen-typo" is not among the 2 models GET \/models lists \(mock-model, gpt-4o-mini\), and a request naming it was refused/m,
    );
    // The doctor's fix is a fact; the CLI words it with its own flag.
    expect(r.stdout).toContain("→ Set model.name in yolo.config.ts (or YOLO_MODEL, --model) to a served model");
    const json = await runYolo(["doctor", "--json"], { cwd: project(onTestFinished), baseURL: mock.url, env: { YOLO_MODEL: "qwen-typo" } });
    const model = (JSON.parse(json.stdout) as { checks: Record<string, unknown>[] }).checks.find((c) => c.id === "model");
    expect(model).toMatchObject({ fix: expect.stringContaining("--model") });
    expect(model).not.toHaveProperty("fixFact");
  });

  it("a model GET /models does not list but the server answers for (a deployment name, a wildcard route): a warning; exit 0", async ({
    expect,
    onTestFinished,
  }) => {
    const mock = await mockWith(onTestFinished, healthy);
    const r = await runYolo(["doctor", "--json"], { cwd: project(onTestFinished), baseURL: mock.url, env: { YOLO_MODEL: "my-azure-deployment" } });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(byId(r.stdout, "model")).toMatchObject({
      status: "warn",
      detail: expect.stringMatching(/not among the 2 models GET \/models lists \(mock-model, gpt-4o-mini\), but it answered/),
    });
    expect(byId(r.stdout, "tools")?.status).toBe("ok");
  });

  it("a model that does not call tools: the tool check fails with the fix per server; exit 1", async ({ expect, onTestFinished }) => {
    const mock = await mockWith(onTestFinished, () => ({ content: "Sure! pong." }));
    const r = await runYolo(["doctor", "--json"], { cwd: project(onTestFinished), baseURL: mock.url, env: { YOLO_MODEL: "mock-model" } });
    expect(r.exitCode, describeResult(r)).toBe(1);
    expect(byId(r.stdout, "tools")).toMatchObject({ status: "fail", fix: expect.stringContaining("--enable-auto-tool-choice --tool-call-parser hermes") });
  });

  it("a model that writes the call as text: a warning, and a run can still work (exit 0)", async ({ expect, onTestFinished }) => {
    const mock = await mockWith(onTestFinished, () => ({ content: `<tool_call>\n{"name": "${PING}", "arguments": {"value": "pong"}}\n</tool_call>` }));
    const r = await runYolo(["doctor", "--json"], { cwd: project(onTestFinished), baseURL: mock.url, env: { YOLO_MODEL: "mock-model", YOLO_SANDBOX: "off" } });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(byId(r.stdout, "tools")?.status).toBe("warn");
  });

  it("unreachable endpoint: fails fast, the rest of the model checks skipped; exit 1", async ({ expect, onTestFinished }) => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const r = await runYolo(["doctor", "--json"], { cwd: project(onTestFinished), baseURL: url });
    expect(r.exitCode, describeResult(r)).toBe(1);
    expect(byId(r.stdout, "endpoint")).toMatchObject({ status: "fail", detail: expect.stringContaining("ECONNREFUSED") });
    expect(byId(r.stdout, "model")?.status).toBe("skip");
    expect(byId(r.stdout, "git")?.status).toBe("ok");
    expect(byId(r.stdout, "database")?.status).toBe("ok");
  });

  it("a server without GET /models: the chat request decides the key and model", async ({ expect, onTestFinished }) => {
    // mockWith takes no server options: this one is started by hand, without GET /models.
    const bare = await startMockOpenAI(healthy, { models: null });
    onTestFinished(() => bare.close());
    const r = await runYolo(["doctor", "--json"], { cwd: project(onTestFinished), baseURL: bare.url, env: { YOLO_MODEL: "llama3.1", YOLO_SANDBOX: "off" } });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(byId(r.stdout, "model")).toMatchObject({ status: "ok", detail: expect.stringContaining("GET /models not served") });
  });
});

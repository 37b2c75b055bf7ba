import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { readYolo, runYoloChild, type ChildOutcome, type YoloBinary } from "./serve-child.js";

const outcomeShape = {
  threadId: z.string().nullable(),
  status: z.string(),
  exitCode: z.number(),
  reason: z.string(),
  resumeCommand: z.string().nullable(),
  question: z.string().nullable(),
};

/** One line of progress for an event, or null for those not worth a notification (tokens, usage). */
export function progressLine(e: Record<string, unknown>): string | null {
  switch (e.type) {
    case "run.started":
      return `thread ${e.thread}: started`;
    case "node.started":
      return `${e.node} started`;
    case "node.completed":
      return `${e.node}: ${e.summary}`;
    case "tool.called":
      return `${e.node} calls ${e.tool}`;
    case "gate.result":
      return `gate ${(e.gate as { name?: string })?.name ?? ""}: ${(e.gate as { passed?: boolean })?.passed ? "passed" : "failed"}`;
    case "interrupt":
      return `${e.askedBy ?? e.node} asks: ${e.question}`;
    case "warning":
    case "error":
      return `${e.type}: ${e.message}`;
    case "run.completed":
      return `${e.status} (exit ${e.exitCode})`;
    default:
      return null;
  }
}

// The tool result for a run or resume: the outcome in words and as structured content.
function outcomeResult(o: ChildOutcome) {
  const lines = [`thread: ${o.threadId ?? "(none)"}`, `status: ${o.status} (exit ${o.exitCode})`, `reason: ${o.reason}`];
  if (o.question) lines.push(`question: ${o.question}`, "Answer it with the resume tool (thread, answer).");
  else if (o.resumeCommand) lines.push(`continue with the resume tool, or: ${o.resumeCommand}`);
  return { content: [{ type: "text" as const, text: lines.join("\n") }], structuredContent: { ...o }, isError: o.threadId === null };
}

/**
 * yolo as an MCP server: `run`, `resume`, `threads`, `show` and `report`, each done by the yolo binary in a child
 * (`--json --ci`: it never prompts; a crash stays in the child). Runs send progress notifications from their events
 * when the client asks for them; cancelling the request (or `shutdown`) stops the run (resumable).
 */
export function createYoloMcpServer(binary: YoloBinary, version: string, shutdown?: AbortSignal): McpServer {
  const server = new McpServer({ name: "yolo", version });
  registerRunTools(server, childFollower(binary, shutdown));
  registerReadTools(server, binary);
  return server;
}

type Follow = ReturnType<typeof childFollower>;

// Runs a child run and relays its events as progress notifications.
// Options before `--`, words after it: a requirement that starts with "-" stays a requirement.
function childFollower(binary: YoloBinary, shutdown: AbortSignal | undefined) {
  return async (
    command: string,
    options: string[],
    words: string[],
    extra: { signal: AbortSignal; _meta?: { progressToken?: string | number }; sendNotification: (n: never) => Promise<void> },
  ) => {
    const token = extra._meta?.progressToken;
    let progress = 0;
    const outcome = await runYoloChild(
      binary,
      [command, ...options, "--json", "--ci", "--", ...words],
      (event) => {
        const message = progressLine(event);
        if (token === undefined || message === null) return;
        progress++;
        void extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress, message } } as never).catch(() => {});
      },
      shutdown ? AbortSignal.any([extra.signal, shutdown]) : extra.signal,
    );
    return outcomeResult(outcome);
  };
}

// The tools that start or continue a thread in a child run: `run` and `resume`.
function registerRunTools(server: McpServer, follow: Follow): void {
  server.registerTool(
    "run",
    {
      description:
        "Start a yolo thread in this project: the workflow on a requirement (mode run), one agent on a task (mode agent, with agent), or a read-only question (mode chat). Returns the thread id and the outcome (exit code, status); a thread waiting on a question or review is continued with resume.",
      inputSchema: {
        requirement: z.string().min(1).describe("what to build (run), what to do (agent), or the question (chat)"),
        mode: z.enum(["run", "agent", "chat"]).default("run"),
        agent: z.string().min(1).optional().describe("the agent id, for mode agent (dev, tea, or one of agents/*.md)"),
      },
      outputSchema: outcomeShape,
    },
    async ({ requirement, mode, agent }, extra) => {
      if (mode === "agent" && !agent) return { content: [{ type: "text", text: "mode agent needs agent (an agent id such as dev)" }], isError: true };
      return follow(mode, [], mode === "agent" ? [agent!, requirement] : [requirement], extra as never);
    },
  );
  server.registerTool(
    "resume",
    {
      description:
        "Continue a thread: answer the question it waits on (answer), approve / reject a review it waits on, send a follow-up message to a finished agent or chat thread, or just resume it after a stop.",
      inputSchema: {
        thread: z.string().min(1),
        answer: z.string().optional(),
        approve: z.boolean().optional(),
        reject: z.string().optional().describe("reject the reviewed output, with the reason"),
        message: z.string().optional().describe("a follow-up message for a finished agent or chat thread"),
      },
      outputSchema: outcomeShape,
    },
    async ({ thread, answer, approve, reject, message }, extra) => {
      const options: string[] = [];
      if (answer !== undefined) options.push("--answer", answer);
      if (approve) options.push("--approve");
      if (reject !== undefined) options.push("--reject", reject);
      return follow("resume", options, message !== undefined ? [thread, message] : [thread], extra as never);
    },
  );
}

// The read-only tools, each one yolo command whose output is returned as it is: `threads`, `show`, `report`.
function registerReadTools(server: McpServer, binary: YoloBinary): void {
  const read = (name: string, description: string, args: (input: { thread?: string; format?: string }) => string[], input: Record<string, z.ZodType>) =>
    server.registerTool(name, { description, inputSchema: input }, async (params: { thread?: string; format?: string }) => {
      const r = await readYolo(binary, args(params));
      return { content: [{ type: "text" as const, text: r.text }], isError: !r.ok };
    });
  read("threads", "List this project's threads (JSON): id, mode, status, exit code, requirement.", () => ["threads", "--json"], {});
  read(
    "show",
    "A thread's state (JSON): requirements, stories, decisions, files changed, gates, usage, what it waits on.",
    ({ thread }) => ["show", thread!, "--json"],
    { thread: z.string().min(1) },
  );
  read(
    "report",
    "A thread's report: markdown (for a PR comment) or the gate results as JUnit XML.",
    ({ thread, format }) => ["report", thread!, "--format", format ?? "markdown"],
    { thread: z.string().min(1), format: z.enum(["markdown", "junit"]).optional() },
  );
}

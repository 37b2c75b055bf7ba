import { z } from "zod";

/**
 * A server name: letters, digits, `-` and single `_`. A double underscore would make `mcp__a__b__c` ambiguous
 * (server `a__b` or tool `b__c`), so it is refused.
 */
export const SERVER_NAME = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;

const common = {
  /** Milliseconds a start or a tool call may take before it is a (readable) tool error; default 60000. */
  timeout: z.number().int().positive().optional(),
  /** false: configured but not started (default true). */
  enabled: z.boolean().optional(),
  /** true: a server that fails to start is a warning and the run goes on without it (default: exit 2). */
  optional: z.boolean().optional(),
};

const stringMap = z.record(z.string(), z.string());

/** A server yolo starts as a child process and talks to over stdin/stdout (`.mcp.json`'s default kind). */
const stdioServer = z.strictObject({
  type: z.literal("stdio").optional(),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  /** Added to the allow-listed environment; `${VAR}` and `${VAR:-default}` read yolo's environment (how secrets get in). */
  env: stringMap.optional(),
  /** Working directory, relative to the project root (default: the root). */
  cwd: z.string().min(1).optional(),
  /**
   * The server runs inside the run's sandbox like every command (the project writable, `.git` and exec files
   * read-only, secret files shown empty, the home folder empty); true keeps the network there (default false: none).
   */
  network: z.boolean().optional(),
  ...common,
});

/** A server at a URL: streamable HTTP (`http`, falling back to legacy SSE on the same URL) or SSE alone (`sse`). */
const remoteServer = z.strictObject({
  type: z.enum(["http", "sse"]),
  url: z.string().url(),
  /** Sent with every request; `${VAR}` expands as in `env` (e.g. `Authorization: "Bearer ${TOKEN}"`). */
  headers: stringMap.optional(),
  ...common,
});

export const mcpServerSchema = z.union([stdioServer, remoteServer]);

/** `mcpServers` in yolo.config.ts, the same shape as `.mcp.json`'s (Claude Code, Cursor, …). */
export const mcpServersSchema = z.record(z.string(), mcpServerSchema).superRefine((servers, ctx) => {
  // Checked here rather than as the record's key schema, whose own message ("Invalid key in record") says nothing.
  for (const name of Object.keys(servers)) {
    if (!SERVER_NAME.test(name))
      ctx.addIssue({ code: "custom", path: [name], message: "a server name is letters, digits, - and single _ (no __, no spaces, no dots)" });
  }
});

export type McpServerConfig = z.output<typeof mcpServerSchema>;
export type McpServers = Record<string, McpServerConfig>;

/** Default per-server timeout (start and each call), in milliseconds. */
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;

/** Whether a server entry is started over stdio. */
export function isStdio(server: McpServerConfig): server is Extract<McpServerConfig, { command: string }> {
  return "command" in server;
}

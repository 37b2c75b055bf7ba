import { isAbsolute, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { commandEnv, isSecretName } from "../secrets/env.js";
import { offlineEnv, runnerHint } from "./package-runners.js";
import { cachedProgram, npxCached } from "./npx-cache.js";
import { pipxCached } from "./pipx-cache.js";
import { bunxCached } from "./bunx-cache.js";
import { DEFAULT_MCP_TIMEOUT_MS, isStdio } from "../config/mcp-servers.js";
import { expandMap } from "./expand.js";
import type { McpServerEntry } from "./servers.js";
import { DetachedStdioTransport } from "./stdio-transport.js";
import { bwrapArgvOf, type Sandbox } from "../exec/sandbox.js";
import type { ConfigProtection } from "../exec/settings.js";
import { serverOwnFolders } from "./server-paths.js";
import { findProtectedPaths } from "../exec/protected-paths.js";
import { type CommandCgroups, openCommandCgroups } from "../exec/command-cgroups.js";
import { DEFAULT_SANDBOX_LIMITS } from "../exec/sandbox-walls.js";
import type { ListedTool, McpCaller } from "./tool-def.js";

/** Tools read from one server at most; a server listing more is cut (with a warning). */
export const MAX_TOOLS_PER_SERVER = 256;
/** `tools/list` pages read at most (a server whose cursor never ends must not hang the start). */
const MAX_PAGES = 20;

/** What starting a server needs from the run: the environment commands get, and the project root. */
export interface ConnectContext {
  root: string;
  env: NodeJS.ProcessEnv;
  secretEnvNames: string[];
  /** The CI allow-list commands are limited to, or null for the scrubbed environment. */
  envAllow: readonly string[] | null;
  /** The run's sandbox: a stdio server is started inside it (bubblewrap), as commands are; absent or none: directly. */
  sandbox?: Sandbox;
  /** The run's agents folder and instruction names: read-only in the server's sandbox, as for commands. */
  config?: ConfigProtection;
}

/** A started server: its tools, how to call them, how to stop it. */
export interface Connected {
  transport: "stdio" | "http" | "sse";
  tools: ListedTool[];
  /** True when the server listed more tools than yolo reads. */
  truncated: boolean;
  caller: McpCaller;
  pid: number | null;
  /** Signals the server's process group at once (exit handlers). */
  kill(): void;
  close(): Promise<void>;
  /** Values of the entry's env and headers, to keep out of what the model sees. */
  secrets: string[];
}

/** Why a server did not start, with the tail of its stderr (stdio). */
export class ServerStartError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
  ) {
    super(message);
  }
}

/**
 * Starts one server (stdio: a detached child with the commands' environment plus its `env`; http: streamable HTTP,
 * then legacy SSE on the same URL when that fails; sse: SSE) and lists its tools, all within its `timeout`.
 */
export async function connectServer(entry: McpServerEntry, ctx: ConnectContext, onSpawn?: (pid: number) => void): Promise<Connected> {
  const timeoutMs = entry.config.timeout ?? DEFAULT_MCP_TIMEOUT_MS;
  const missing: string[] = [];
  const server = entry.config;
  if (isStdio(server)) {
    const extra = expandMap(server.env, ctx.env, missing);
    // A package runner (npx, uvx) walled off from the network and the user's cache is told so, and fails at once.
    const walled = ctx.sandbox?.kind === "bwrap" && server.network !== true;
    // `npx -y <pkg>`, `pipx run <app>` or `bunx <pkg>` whose package the runner installed before: its program is run
    // from the user's cache, read-only.
    const npx = walled ? runnerCached(server.command, server.args ?? [], ctx) : null;
    const program = { ...server, ...cachedProgram(npx) };
    const env = { ...commandEnv(ctx.env, ctx.secretEnvNames, ctx.envAllow), ...offlineEnv(program.command, walled), ...extra };
    const cwd = server.cwd ? (isAbsolute(server.cwd) ? server.cwd : resolve(ctx.root, server.cwd)) : ctx.root;
    const { cgroups, ...launch } = launchArgv(program, ctx, env, cwd);
    const transport = new DetachedStdioTransport({ ...launch, env, cwd });
    const secrets = secretValues(extra);
    try {
      const client = await open(transport, timeoutMs, () => onSpawn?.(transport.pid!));
      const listed = await listTools(client, timeoutMs);
      return {
        transport: "stdio",
        ...listed,
        caller: caller(client, cgroups),
        pid: transport.pid ?? null,
        kill: () => {
          transport.kill("SIGKILL");
          cgroups?.close();
        },
        close: () => client.close().finally(() => cgroups?.close()),
        secrets,
      };
    } catch (error) {
      await transport.close().catch(() => {});
      const failure = startFailure(error, timeoutMs, missing) + memoryNote(cgroups) + runnerHint(program.command, walled, npx);
      cgroups?.close();
      throw new ServerStartError(failure, transport.stderrTail());
    }
  }
  const headers = expandMap(server.headers, ctx.env, missing);
  const url = new URL(server.url);
  const attempts: ["http" | "sse", () => Transport][] = [];
  if (server.type === "http") attempts.push(["http", () => new StreamableHTTPClientTransport(url, { requestInit: { headers } })]);
  attempts.push([
    "sse",
    () =>
      new SSEClientTransport(url, {
        requestInit: { headers },
        eventSourceInit: { fetch: (u, init) => fetch(u, { ...init, headers: { ...headers, ...(init?.headers as Record<string, string>) } }) },
      }),
  ]);
  const failures: string[] = [];
  for (const [kind, make] of attempts) {
    try {
      const client = await open(make(), timeoutMs);
      const listed = await listTools(client, timeoutMs);
      return { transport: kind, ...listed, caller: caller(client), pid: null, kill: () => {}, close: () => client.close(), secrets: secretValues(headers) };
    } catch (error) {
      failures.push(`${kind === "http" ? "streamable HTTP" : "SSE"}: ${startFailure(error, timeoutMs, missing)}`);
    }
  }
  throw new ServerStartError(failures.join("; "), "");
}

// What a package runner's cache holds for the server's command, when the command is one the runners' readers know.
function runnerCached(command: string, args: string[], ctx: ConnectContext) {
  return npxCached(command, args, ctx.env, ctx.root) ?? pipxCached(command, args, ctx.env) ?? bunxCached(command, args, ctx.env, ctx.root);
}

/**
 * The program that starts a stdio server: bubblewrap around it when the run has a sandbox (the same walls as a
 * command's, found by the same walk; the network only when the server's `network` is true), the server itself otherwise.
 */
function launchArgv(server: { command: string; args?: string[]; network?: boolean }, ctx: ConnectContext, env: NodeJS.ProcessEnv, cwd: string) {
  const argv = [server.command, ...(server.args ?? [])];
  if (ctx.sandbox?.kind !== "bwrap") return { command: server.command, args: argv.slice(1) };
  // The server's own files outside the project, where the sandbox would show them empty, are shown read-only.
  const own = serverOwnFolders(argv, ctx.root, ctx.sandbox.hidden ?? []);
  const sandbox = { ...ctx.sandbox, network: server.network === true, readOnly: [...(ctx.sandbox.readOnly ?? []), ...own] };
  const guard = findProtectedPaths(ctx.root, undefined, ctx.config);
  // Fail closed, as for commands: a walk that stopped short may have missed a git dir or a secret file.
  if (!guard.complete)
    throw new ServerStartError(`not started in the sandbox: ${guard.incomplete ?? "the walk for files to protect stopped at its limits"}`, "");
  // The commands' cgroups too: the server's processes together are held to sandboxProcesses and sandboxMemoryMB.
  const cgroups = openCommandCgroups(sandbox.limits ?? DEFAULT_SANDBOX_LIMITS);
  const [command, ...args] = bwrapArgvOf(cgroups ? { ...sandbox, cgroups: cgroups.dirs } : sandbox, ctx.root, argv, guard, env.PATH, cwd);
  return { command, args, cgroups };
}

// Connects (the MCP initialize handshake) within the timeout.
async function open(transport: Transport, timeoutMs: number, spawned?: () => void): Promise<Client> {
  const client = new Client({ name: "yolo", version: "1" }, { capabilities: {} });
  const start = transport.start.bind(transport);
  // The SDK starts the transport inside connect(); wrap it to learn the pid as soon as the process exists.
  transport.start = async () => {
    await start();
    spawned?.();
  };
  await client.connect(transport, { timeout: timeoutMs });
  return client;
}

// Every page of tools/list, bounded in pages and tools: a hostile server's endless cursor or huge list cannot stall the start.
async function listTools(client: Client, timeoutMs: number): Promise<{ tools: ListedTool[]; truncated: boolean }> {
  const tools: ListedTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await client.listTools(cursor ? { cursor } : {}, { timeout: timeoutMs });
    tools.push(...(res.tools as ListedTool[]));
    cursor = res.nextCursor;
    if (!cursor || tools.length >= MAX_TOOLS_PER_SERVER) break;
  }
  return { tools: tools.slice(0, MAX_TOOLS_PER_SERVER), truncated: tools.length > MAX_TOOLS_PER_SERVER || cursor !== undefined };
}

// Calls with the server's timeout and the run's abort signal; the SDK turns a timeout into a -32001 error. A call that
// fails after the kernel killed a server process for the memory group's limit says so.
function caller(client: Client, cgroups?: CommandCgroups | null): McpCaller {
  return {
    call: async (tool, args, opts) => {
      try {
        return (await client.callTool({ name: tool, arguments: args }, undefined, { timeout: opts.timeoutMs, signal: opts.signal })) as {
          content?: unknown;
          structuredContent?: unknown;
          isError?: unknown;
        };
      } catch (error) {
        const note = memoryNote(cgroups);
        if (!note || !(error instanceof Error)) throw error;
        error.message += note;
        throw error;
      }
    },
  };
}

// "" unless the server's memory group has had an OOM kill: then what happened and the setting that limits it.
function memoryNote(cgroups: CommandCgroups | null | undefined): string {
  const kills = cgroups?.oomKills() ?? 0;
  if (!kills || !cgroups?.memoryBytes) return "";
  return ` (the server's processes together reached the sandbox's memory limit of ${Math.round(cgroups.memoryBytes / 1024 ** 2)} MB, limits.sandboxMemoryMB, and the kernel killed ${kills === 1 ? "one of them" : `${kills} of them`}: OOM kill)`;
}

// Values of entries whose names say they are secret (`GITHUB_TOKEN`, `Authorization`): kept out of what the model sees.
function secretValues(map: Record<string, string>): string[] {
  return Object.entries(map)
    .filter(([name]) => isSecretName(name) || /^(authorization|proxy-authorization|cookie)$/i.test(name))
    .flatMap(([, value]) => [value, ...value.split(/\s+/).filter((part) => part.length >= 12)]);
}

function startFailure(error: unknown, timeoutMs: number, missing: string[]): string {
  const code = (error as { code?: unknown }).code;
  let text = code === -32001 ? `it did not answer within ${timeoutMs} ms (its \`timeout\`)` : ((error as Error).message ?? String(error));
  if ((error as NodeJS.ErrnoException).code === "ENOENT") text = `the command was not found (${text})`;
  if (missing.length) text += `; note: ${[...new Set(missing)].join(", ")} ${missing.length === 1 ? "is" : "are"} not set in yolo's environment`;
  return text;
}

import type { ResolvedConfig } from "../config/schema.js";
import type { EventBody } from "../events/schema.js";
import { ConfigError } from "../errors.js";
import { registerSecrets } from "../secrets/scrub.js";
import { scrubbing } from "../tools/registry.js";
import type { McpToolName, ToolDef } from "../tools/types.js";
import { DEFAULT_MCP_TIMEOUT_MS } from "../config/mcp-servers.js";
import type { ConnectContext, Connected } from "./connect.js";
import { modelToolName } from "./names.js";
import { pidDir, processStartTime, removePidfile, sweepLeftovers, writePidfile } from "./pidfiles.js";
import { McpRecorder, McpReplayer, type McpRecordingSpec } from "./recording.js";
import { configuredServers, type McpServerEntry, type ServerSources } from "./servers.js";
import { mcpToolDef, type ListedTool } from "./tool-def.js";

/** What the tool selector knows of an MCP tool. */
export interface McpToolInfo {
  name: McpToolName;
  server: string;
  /** The server's `readOnlyHint` annotation: only such tools are offered to `chat`. */
  readOnly: boolean;
}

/** The MCP servers of one process's runs: started when a run leg starts, stopped when it ends. */
export interface McpHub {
  /** Starts the configured servers (idempotent); a required one that fails throws a ConfigError (exit 2). */
  start(run: { threadId: string; emit: (event: EventBody) => void }): Promise<void>;
  /** Every tool the started servers offer, for the tool selector. */
  catalog(): readonly McpToolInfo[];
  tool(name: string): ToolDef | undefined;
  /** Stops every server (its whole process group) and removes the pidfiles. */
  stop(): Promise<void>;
}

export interface McpHubOptions {
  config: Pick<ResolvedConfig, "stateDir"> & ServerSources;
  connect: ConnectContext;
  logger: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
  recording?: McpRecordingSpec;
}

interface Running {
  entry: McpServerEntry;
  connected: Pick<Connected, "kill" | "close">;
  pidfile: string | null;
}

type ToolCaller = Parameters<typeof mcpToolDef>[0]["caller"];
type HubTools = Map<string, { def: ToolDef; info: McpToolInfo }>;

/** Creates the hub; nothing starts (and the SDK is not loaded) until `start`, and only when servers are configured. */
export function createMcpHub(options: McpHubOptions): McpHub {
  const { config, logger } = options;
  const roots = { project: config.root, state: config.stateDir };
  let running: Running[] = [];
  let tools: HubTools = new Map();
  let started = false;
  const killAll = () => {
    for (const r of running) r.connected.kill();
  };

  return {
    async start({ threadId, emit }) {
      if (started) return;
      const servers = configuredServers(config);
      started = true;
      // Before the check for servers: a server removed from the config after a kill -9 is stopped all the same.
      for (const r of sweepLeftovers(config.stateDir))
        logger.warn({ ...r }, `stopped MCP server ${r.server} (pid ${r.pid}) left running by a yolo that was killed`);
      if (servers.length === 0) return;
      const warn = (message: string) => {
        logger.warn({ threadId }, message);
        emit({ type: "warning", message });
      };
      const addTools = (server: string, listed: ListedTool[], caller: ToolCaller, timeoutMs: number) =>
        addListedTools(tools, config.stateDir, { server, listed, caller, timeoutMs }, warn);
      if (options.recording?.mode === "replay") {
        const replayer = new McpReplayer(options.recording, roots);
        for (const entry of servers) {
          const listed = replayer.toolsOf(entry.name);
          if (listed) addTools(entry.name, listed, replayer.caller(entry.name), entry.config.timeout ?? DEFAULT_MCP_TIMEOUT_MS);
          else warn(`MCP server "${entry.name}" is not in the recording being replayed: its tools are not available in this replay`);
        }
        return;
      }
      const recorder = options.recording?.mode === "record" ? new McpRecorder(options.recording, roots) : null;
      const { connectServer } = await import("./connect.js");
      process.on("exit", killAll);
      const ctx: StartContext = {
        connectServer,
        connect: options.connect,
        dir: pidDir(config.stateDir, threadId),
        recorder,
        threadId,
        logger,
        warn,
        addTools,
        onStarted: (r) => running.push(r),
      };
      const failed = (await Promise.all(servers.map((entry) => startServer(entry, ctx)))).filter((m): m is string => m !== null);
      if (failed.length) {
        await this.stop();
        throw new ConfigError(
          `${failed.join("\n")}\nFix the server's entry (or the server), mark it \`optional: true\` to run without it, or \`enabled: false\` to turn it off. Nothing ran.`,
        );
      }
    },
    catalog: () => [...tools.values()].map((t) => t.info),
    tool: (name) => tools.get(name)?.def,
    async stop() {
      const stopping = running;
      running = [];
      tools = new Map();
      started = false;
      process.off("exit", killAll);
      await Promise.all(
        stopping.map(async (r) => {
          await r.connected.close().catch((err: unknown) => logger.warn({ err, server: r.entry.name }, "could not stop an MCP server cleanly"));
          r.connected.kill();
          if (r.pidfile) removePidfile(r.pidfile);
          logger.info({ server: r.entry.name }, "MCP server stopped");
        }),
      );
    },
  };
}

// Turns a server's listed tools into yolo tools: names the provider accepts, collisions refused.
function addListedTools(
  tools: HubTools,
  stateDir: string,
  { server, listed, caller, timeoutMs }: { server: string; listed: ListedTool[]; caller: ToolCaller; timeoutMs: number },
  warn: (m: string) => void,
): void {
  for (const tool of listed) {
    const name = typeof tool?.name === "string" ? modelToolName(server, tool.name) : null;
    if (!name) {
      warn(
        `MCP server "${server}": tool ${JSON.stringify(String(tool?.name).slice(0, 80))} is left out: its name does not fit the model's tool-name rules (letters, digits, _ and -, 64 characters with the mcp__${server}__ prefix)`,
      );
      continue;
    }
    if (tools.has(name)) {
      warn(`MCP server "${server}": tool "${tool.name}" is left out: its name ${name} collides with another tool's`);
      continue;
    }
    const def = scrubbing(mcpToolDef({ name: name as McpToolName, server, tool, caller, timeoutMs, stateDir }));
    tools.set(name, { def, info: { name: name as McpToolName, server, readOnly: tool.annotations?.readOnlyHint === true } });
  }
}

// What starting each server of one run needs: the SDK's connect, where pidfiles go, and where results go.
interface StartContext {
  connectServer: typeof import("./connect.js").connectServer;
  connect: ConnectContext;
  dir: string;
  recorder: McpRecorder | null;
  threadId: string;
  logger: McpHubOptions["logger"];
  warn(message: string): void;
  addTools(server: string, listed: ListedTool[], caller: ToolCaller, timeoutMs: number): void;
  onStarted(r: Running): void;
}

// Starts one server with a pidfile (so a killed yolo's successor can stop it), registers its secrets and adds its
// tools. A failure is returned as the message saying why, or warned about and null when the server is optional.
async function startServer(entry: McpServerEntry, ctx: StartContext): Promise<string | null> {
  let pidfile: string | null = null;
  const onSpawn = (pid: number) => {
    pidfile = writePidfile(ctx.dir, {
      server: entry.name,
      pid,
      started: processStartTime(pid),
      owner: process.pid,
      ownerStarted: processStartTime(process.pid),
    });
  };
  try {
    const c = await ctx.connectServer(entry, ctx.connect, onSpawn);
    registerSecrets(c.secrets);
    ctx.onStarted({ entry, connected: c, pidfile });
    ctx.recorder?.tools(entry.name, c.tools);
    if (c.truncated) ctx.warn(`MCP server "${entry.name}" lists more tools than yolo reads (${c.tools.length}); only those are available`);
    ctx.addTools(entry.name, c.tools, ctx.recorder ? ctx.recorder.wrap(entry.name, c.caller) : c.caller, entry.config.timeout ?? DEFAULT_MCP_TIMEOUT_MS);
    ctx.logger.info({ threadId: ctx.threadId, server: entry.name, transport: c.transport, tools: c.tools.length, pid: c.pid }, "MCP server started");
    return null;
  } catch (error) {
    if (pidfile) removePidfile(pidfile);
    const stderr = (error as { stderr?: string }).stderr ?? "";
    const message = `MCP server "${entry.name}" (${entry.source}) did not start: ${(error as Error).message}${stderr ? `\n  its stderr ended with:\n${indent(stderr)}` : ""}`;
    if (entry.config.optional) {
      ctx.warn(`${message}\n  It is optional: the run goes on without its tools.`);
      return null;
    }
    return message;
  }
}

function indent(text: string): string {
  return text
    .split("\n")
    .slice(-20)
    .map((l) => `    ${l}`)
    .join("\n");
}

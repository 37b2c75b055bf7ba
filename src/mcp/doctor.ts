import type { Sandbox } from "../exec/sandbox.js";
import type { ResolvedConfig } from "../config/schema.js";
import { configuredServers } from "./servers.js";

/** What `yolo doctor` says about one MCP server. */
export interface McpServerFact {
  server: string;
  /** The file it is configured in (`.mcp.json`, `yolo.config.ts`). */
  source: string;
  transport: "stdio" | "http" | "sse" | null;
  ok: boolean;
  /** Tools it lists (null when it did not start). */
  tools: number | null;
  optional: boolean;
  /** Why it did not start, with its stderr tail; null when ok. */
  error: string | null;
}

/**
 * Starts every configured (enabled) MCP server as a run would, lists its tools and stops it: the facts for
 * `yolo doctor` (the CLI words them). A broken `.mcp.json` throws its ConfigError.
 */
export async function checkMcpServers(config: ResolvedConfig, env: NodeJS.ProcessEnv, within?: Sandbox | { refused: string }): Promise<McpServerFact[]> {
  const servers = configuredServers(config);
  if (servers.length === 0) return [];
  const { connectServer } = await import("./connect.js");
  const connect = {
    root: config.root,
    env,
    secretEnvNames: [config.model.apiKeyEnv],
    envAllow: config.env.strict ? config.env.allow : null,
    ...(within && "kind" in within ? { sandbox: within } : {}),
  };
  return Promise.all(
    servers.map(async (entry): Promise<McpServerFact> => {
      const base = { server: entry.name, source: entry.source, optional: entry.config.optional === true };
      // `sandbox: "required"` covers MCP servers: without a working sandbox none is started, here as in a run.
      if (within && "refused" in within) return { ...base, transport: null, ok: false, tools: null, error: `not started: ${within.refused}` };
      try {
        const c = await connectServer(entry, connect);
        await c.close().catch(() => {});
        c.kill();
        return { ...base, transport: c.transport, ok: true, tools: c.tools.length, error: null };
      } catch (error) {
        const stderr = (error as { stderr?: string }).stderr;
        return { ...base, transport: null, ok: false, tools: null, error: `${(error as Error).message}${stderr ? `\n${stderr}` : ""}` };
      }
    }),
  );
}

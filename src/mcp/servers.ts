import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { ResolvedConfig } from "../config/schema.js";
import { ConfigError } from "../errors.js";
import { mcpServersSchema, type McpServerConfig } from "../config/mcp-servers.js";

/** The project file other CLIs (Claude Code, Cursor, Codex) read their MCP servers from. */
export const MCP_JSON = ".mcp.json";

const mcpJsonSchema = z.strictObject({ mcpServers: mcpServersSchema });

/** One configured server and the file it came from (named in every message about it). */
export interface McpServerEntry {
  name: string;
  config: McpServerConfig;
  source: string;
}

/** Where a run's servers are configured: the project's files, and the user config's servers where it has any. */
export type ServerSources = Pick<ResolvedConfig, "root" | "configFile" | "mcpServers" | "mcpJson"> &
  Partial<Pick<ResolvedConfig, "userMcpServers" | "userConfigFile">>;

/**
 * The MCP servers of a project: the user config's first, then `.mcp.json`, then `mcpServers` of yolo.config.ts; each
 * replaces an entry of the same name. Disabled ones (`enabled: false`) are left out. A broken `.mcp.json` is a
 * ConfigError (exit 2).
 */
export function configuredServers(config: ServerSources): McpServerEntry[] {
  const byName = new Map<string, McpServerEntry>();
  const userSource = config.userConfigFile ? `your user config (${config.userConfigFile})` : "your user config";
  for (const [name, server] of Object.entries(config.userMcpServers ?? {})) byName.set(name, { name, config: server, source: userSource });
  const fromJson = config.mcpJson === undefined ? readMcpJson(config.root) : parseMcpJson(config.mcpJson, join(config.root, MCP_JSON));
  for (const [name, server] of Object.entries(fromJson)) byName.set(name, { name, config: server, source: MCP_JSON });
  const configName = config.configFile ? config.configFile.split("/").pop()! : "yolo.config.ts";
  for (const [name, server] of Object.entries(config.mcpServers ?? {})) byName.set(name, { name, config: server, source: configName });
  return [...byName.values()].filter((s) => s.config.enabled !== false);
}

/** `.mcp.json`'s servers, validated; `{}` when the file does not exist. */
export function readMcpJson(root: string): Record<string, McpServerConfig> {
  const file = join(root, MCP_JSON);
  return parseMcpJson(existsSync(file) ? readFileSync(file, "utf8") : null, file);
}

/** `.mcp.json`'s servers from its text (null: no file), validated; `file` names it in a problem. */
function parseMcpJson(text: string | null, file: string): Record<string, McpServerConfig> {
  if (text === null) return {};
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (cause) {
    throw new ConfigError(`${file} is not valid JSON (${(cause as Error).message}); fix it or remove it.`, [], { cause });
  }
  const parsed = mcpJsonSchema.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (i) => `${i.path.map(String).join(".") || "(file)"}: ${i.code === "unrecognized_keys" ? `unknown key ${i.keys.join(", ")}` : i.message}`,
    );
    throw new ConfigError(
      `${file} has ${problems.length === 1 ? "a problem" : `${problems.length} problems`}; fix it (same shape as mcpServers in yolo.config.ts) and run again:`,
      problems,
    );
  }
  return parsed.data.mcpServers;
}

import type { McpServer } from "@agentclientprotocol/sdk";
import { type McpServers, SERVER_NAME } from "../config/mcp-servers.js";

/** The editor's MCP servers of a session as yolo starts them, and the ones it cannot start, with why. */
export interface EditorServers {
  servers: McpServers | null;
  refused: string[];
}

/**
 * The servers `session/new` (or `session/load`) passed: stdio ones become user-config entries of the session's runs,
 * so they start as the config's do (in the sandbox, with the commands' environment plus their own `env`), and are
 * optional (one that fails to start is a warning, not the end of the run: the user set it up for the editor, not for
 * yolo). http and sse ones are refused by name: yolo says it does not take remote servers from an editor (the
 * agent's capabilities say so too) rather than drop them silently.
 */
export function editorServers(given: readonly McpServer[] | undefined): EditorServers {
  const servers: McpServers = {};
  const refused: string[] = [];
  for (const server of given ?? []) {
    if ("type" in server && (server.type === "http" || server.type === "sse")) {
      refused.push(`${server.name} (${server.type} ${server.url})`);
      continue;
    }
    const stdio = server as Extract<McpServer, { command: string }>;
    const env = Object.fromEntries((stdio.env ?? []).map((v) => [v.name, v.value]));
    servers[uniqueName(serverName(stdio.name), servers)] = { command: stdio.command, args: [...(stdio.args ?? [])], env, optional: true };
  }
  return { servers: Object.keys(servers).length ? servers : null, refused };
}

/** What the editor is told about the servers it passed that yolo does not start. */
export function refusalText(refused: string[]): string {
  return `yolo starts an editor's stdio MCP servers only; not started: ${refused.join(", ")}. Configure a remote server in yolo.config.ts or .mcp.json (type "http" or "sse") to use it here.\n`;
}

// The server's name as yolo's tool names allow (letters, digits, - and single _): the model sees mcp__<name>__<tool>.
function serverName(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9_-]+/g, "-")
    .replace(/_+/g, "_")
    .replace(/^_+|_+$/g, "");
  return SERVER_NAME.test(cleaned) ? cleaned : "editor";
}

function uniqueName(name: string, taken: McpServers): string {
  let unique = name;
  for (let n = 2; unique in taken; n++) unique = `${name}-${n}`;
  return unique;
}

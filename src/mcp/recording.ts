import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { toAliases, type AliasRoots } from "../prompt/aliases.js";
import { scrubValue } from "../secrets/scrub.js";
import { ConfigError } from "../errors.js";
import type { ListedTool, McpCaller } from "./tool-def.js";
import { canonical } from "../text/canonical.js";

/** `--record`/`--replay` of MCP calls: where, and which way. */
export interface McpRecordingSpec {
  /** The model session file given to `--record` / `--replay`; MCP calls live beside it. */
  file: string;
  mode: "record" | "replay";
  /** A resume adds to the recording rather than starting it over. */
  append?: boolean;
}

type Line =
  | { kind: "tools"; server: string; tools: ListedTool[] }
  | { kind: "call"; server: string; tool: string; args: unknown; result?: unknown; error?: { message: string; code?: unknown } };

/** `session.jsonl` → `session.mcp.jsonl`: the MCP side of a recorded session. */
export function mcpRecordingFile(file: string): string {
  return file.endsWith(".jsonl") ? `${file.slice(0, -".jsonl".length)}.mcp.jsonl` : `${file}.mcp.jsonl`;
}

// Real paths become aliases in what is stored (and in what is matched): a recording replays from any checkout.
function portable<T>(value: T, roots: AliasRoots): T {
  return JSON.parse(toAliases(JSON.stringify(scrubValue(value)), roots)) as T;
}

/** Writes each server's tool list and every call (arguments and result or error) as JSON Lines, secrets scrubbed. */
export class McpRecorder {
  private readonly file: string;
  constructor(
    spec: McpRecordingSpec,
    private readonly roots: AliasRoots,
  ) {
    this.file = mcpRecordingFile(spec.file);
    if (!spec.append || !existsSync(this.file)) writeFileSync(this.file, "");
  }

  tools(server: string, tools: ListedTool[]): void {
    this.write({ kind: "tools", server, tools });
  }

  /** The live caller, with each call written down as it completes. */
  wrap(server: string, live: McpCaller): McpCaller {
    return {
      call: async (tool, args, opts) => {
        try {
          const result = await live.call(tool, args, opts);
          this.write({ kind: "call", server, tool, args, result });
          return result;
        } catch (error) {
          this.write({ kind: "call", server, tool, args, error: { message: (error as Error).message, code: (error as { code?: unknown }).code } });
          throw error;
        }
      },
    };
  }

  private write(line: Line): void {
    appendFileSync(this.file, `${JSON.stringify(portable(line, this.roots))}\n`);
  }
}

/** Serves tool lists and call results from a recording, in order per identical call; never starts a server. */
export class McpReplayer {
  private readonly lists = new Map<string, ListedTool[]>();
  private readonly calls = new Map<string, Line[]>();

  constructor(
    spec: McpRecordingSpec,
    private readonly roots: AliasRoots,
  ) {
    const file = mcpRecordingFile(spec.file);
    if (!existsSync(file)) return;
    readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .forEach((text, i) => {
        let line: Line;
        try {
          line = JSON.parse(text) as Line;
        } catch {
          throw new ConfigError(`${file}, line ${i + 1}: not JSON; the MCP recording is damaged. Record the session again.`);
        }
        if (line.kind === "tools") this.lists.set(line.server, line.tools);
        else if (line.kind === "call") {
          const key = keyOf(line.server, line.tool, line.args);
          this.calls.set(key, [...(this.calls.get(key) ?? []), line]);
        }
      });
  }

  /** The tools the server listed when the session was recorded, or null when it was not in it. */
  toolsOf(server: string): ListedTool[] | null {
    return this.lists.get(server) ?? null;
  }

  caller(server: string): McpCaller {
    return {
      call: async (tool, args) => {
        const key = keyOf(server, tool, portable(args, this.roots));
        const line = this.calls.get(key)?.shift();
        if (line?.kind !== "call") throw new Error(`this call (${tool} with these arguments) is not in the recording being replayed`);
        if (line.error) throw Object.assign(new Error(line.error.message), { code: line.error.code });
        return line.result as { content?: unknown };
      },
    };
  }
}

function keyOf(server: string, tool: string, args: unknown): string {
  return `${server}\u0000${tool}\u0000${canonical(args)}`;
}

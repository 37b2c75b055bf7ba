import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadUserConfig } from "../config/load.js";
import type { McpServers } from "../config/mcp-servers.js";
import { EDITOR_FS_ENV } from "../tools/editor-fs.js";

/** A tool call a run asks the editor's user about, as the run's PreToolUse hook gave it. */
export interface PermissionQuestion {
  /** The ACP session whose turn started the run. */
  sessionId: string;
  tool: string;
  input: Record<string, unknown>;
  callId: string;
}

/** Let the call run, or refuse it with the reason the agent reads as the tool's result. */
export type PermissionAnswer = { allow: true } | { allow: false; reason: string };

/** A file tool's read or write the run makes through the editor (src/tools/editor-fs.ts), by absolute path. */
export interface EditorFsRequest {
  sessionId: string;
  op: "read" | "write";
  path: string;
  content?: string;
}

/** yolo's tools that change files, and the command tool: the ones ask mode asks about (commands only unsandboxed). */
export const ASKED_TOOLS = ["write_file", "edit_file", "delete_file", "run_command"] as const;

/**
 * How a run in a child asks the editor before each edit or command: the user's own config (where `YOLO_USER_CONFIG`
 * or the usual place names it) with one more PreToolUse hook, matched to the asked tools, whose command is a tiny script
 * that hands the call to this process over a private Unix socket and prints the answer as Claude Code's hook JSON.
 * The user config's hooks run on the host and are never subject to the repository's trust, and a hook that fails
 * (this process gone) refuses the call, so an edit is never made unasked. The folder is the user's alone (0700).
 * The same socket carries the file tools' reads and writes through the editor, where it offers its file system.
 */
export class PermissionDoor {
  private server: Server | null = null;
  private readonly dir = mkdtempSync(join(tmpdir(), "yolo-acp-"));
  private readonly socket = join(this.dir, "ask.sock");
  private readonly script = join(this.dir, "ask.mjs");

  constructor(
    private readonly node: string,
    private readonly ask: (q: PermissionQuestion) => Promise<PermissionAnswer>,
    // Without an editor file system a tool's request fails, and the tool uses the disk.
    private readonly editorFs: (r: EditorFsRequest) => Promise<string | undefined> = () => Promise.reject(new Error("no editor file system")),
  ) {
    chmodSync(this.dir, 0o700);
  }

  /**
   * The environment a child run of `sessionId` starts with: the user config file with the hook that asks (`ask`),
   * and the MCP servers the editor gave the session beside the user's own. A user config that does not load is left
   * as it is, so the child reports it as it would without the editor.
   */
  async envFor(sessionId: string, env: NodeJS.ProcessEnv, add: { ask: boolean; mcpServers?: McpServers }): Promise<NodeJS.ProcessEnv> {
    await this.listen();
    let user: Awaited<ReturnType<typeof loadUserConfig>>;
    try {
      user = await loadUserConfig(env);
    } catch {
      return env;
    }
    let config = user.config;
    if (add.ask) {
      const hooks = config.hooks ?? {};
      const ours = { type: "command" as const, command: [this.node, this.script, this.socket, sessionId].map(shellWord).join(" "), timeout: 3600 };
      config = { ...config, hooks: { ...hooks, PreToolUse: [...(hooks.PreToolUse ?? []), { matcher: ASKED_TOOLS.join("|"), hooks: [ours] }] } };
    }
    if (add.mcpServers) config = { ...config, mcpServers: { ...config.mcpServers, ...add.mcpServers } };
    const file = join(this.dir, `${sessionId.replace(/[^\w-]/g, "_")}.json`);
    writeFileSync(file, JSON.stringify(config), { mode: 0o600 });
    return { ...env, YOLO_USER_CONFIG: file };
  }

  /** The environment that hands a child run of `sessionId` the editor's file system. */
  async fsEnv(sessionId: string, env: NodeJS.ProcessEnv): Promise<NodeJS.ProcessEnv> {
    await this.listen();
    return { ...env, [EDITOR_FS_ENV]: JSON.stringify({ socket: this.socket, session: sessionId }) };
  }

  /** Stops answering (a waiting hook then fails, and its call is refused) and removes the folder. */
  close(): void {
    this.server?.close();
    this.server = null;
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async listen(): Promise<void> {
    if (this.server) return;
    writeFileSync(this.script, HOOK_SCRIPT, { mode: 0o600 });
    const server = createServer((conn) => void this.answer(conn));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.socket, () => resolve());
    });
    chmodSync(this.socket, 0o600);
  }

  // One hook run: its question on one line, the hook's JSON answer back.
  private async answer(conn: Socket): Promise<void> {
    // Read up to the question's newline; leaving a for-await loop early would destroy the socket before the answer.
    const text = await new Promise<string>((resolve) => {
      let got = "";
      conn.setEncoding("utf8");
      conn.on("data", (chunk: string) => {
        got += chunk;
        if (got.includes("\n")) resolve(got);
      });
      conn.on("end", () => resolve(got));
      conn.on("error", () => resolve(got));
    });
    const message = parseLine(text);
    if (message && typeof message.fs === "string") return void conn.end(`${JSON.stringify(await this.fileOp(message))}\n`);
    let decision: PermissionAnswer;
    try {
      if (!message) throw new Error("the hook's question was not JSON");
      const { session, payload } = message as { session: string; payload: { tool_name?: string; tool_input?: unknown; tool_use_id?: string } };
      const input = payload.tool_input && typeof payload.tool_input === "object" ? (payload.tool_input as Record<string, unknown>) : {};
      decision = await this.ask({ sessionId: session, tool: String(payload.tool_name ?? ""), input, callId: String(payload.tool_use_id ?? "") });
    } catch (error) {
      decision = { allow: false, reason: `yolo acp could not ask the editor (${(error as Error).message}); nothing was changed.` };
    }
    const specific = decision.allow
      ? { hookEventName: "PreToolUse", permissionDecision: "allow" }
      : { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: decision.reason };
    conn.end(`${JSON.stringify({ hookSpecificOutput: specific })}\n`);
  }

  // A file tool's read or write through the editor; a failure is said, and the tool then uses the disk.
  private async fileOp(m: Record<string, unknown>): Promise<{ ok: boolean; content?: string; error?: string }> {
    const op = m.fs === "write" ? "write" : "read";
    const request = { sessionId: String(m.session), op, path: String(m.path), ...(typeof m.content === "string" ? { content: m.content } : {}) } as const;
    try {
      const content = await this.editorFs(request);
      return content === undefined ? { ok: true } : { ok: true, content };
    } catch (error) {
      return { ok: false, error: (error as Error).message };
    }
  }
}

function parseLine(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === "object" ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function shellWord(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The hook: passes its stdin (the call) to the socket with the session id, and prints what comes back. It exits 1
 * when nobody answers, which refuses the call (PreToolUse hooks fail closed).
 */
const HOOK_SCRIPT = `import { writeSync } from "node:fs";
import { connect } from "node:net";
const [socket, session] = process.argv.slice(2);
let input = "";
for await (const chunk of process.stdin) input += chunk;
const conn = connect(socket);
let out = "";
conn.setEncoding("utf8");
conn.on("data", (chunk) => (out += chunk));
conn.on("end", () => writeSync(1, out));
conn.on("error", (error) => {
  process.stderr.write("yolo acp, which asks the editor, is not answering: " + error.message + "\\n");
  process.exitCode = 1;
});
conn.write(JSON.stringify({ session, payload: JSON.parse(input) }) + "\\n");
`;

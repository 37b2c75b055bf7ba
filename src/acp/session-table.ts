import type { FileSystemCapabilities } from "@agentclientprotocol/sdk";
import type { YoloBinary } from "../mcp/serve-child.js";
import { askCall } from "./call-ask.js";
import { editorFile } from "./editor-files.js";
import { START_MODE } from "./modes.js";
import { PermissionDoor } from "./permission-door.js";
import type { AcpSession } from "./prompt-turn.js";

/**
 * The sessions one `yolo acp` holds, the prompt turns in progress, and how each turn's child run is started
 * (its environment follows the session's mode).
 */
export class SessionTable {
  private readonly sessions = new Map<string, AcpSession>();
  private readonly running = new Set<Promise<unknown>>();
  // Ask mode's runs ask through it before each edit; it answers for the session that started the run.
  private readonly door: PermissionDoor;
  /** What of its file system the editor offered at initialize: the runs' file tools then go through it. */
  editorFs: FileSystemCapabilities = {};

  constructor(private readonly binary: Omit<YoloBinary, "cwd">) {
    const ask = (q: Parameters<typeof askCall>[1]) => askCall(this.sessions.get(q.sessionId), q);
    this.door = new PermissionDoor(binary.node, ask, (r) => editorFile(this.sessions.get(r.sessionId), this.editorFs, r));
  }

  /** A session of this id in `cwd`, in the starting mode, replacing one of the same id. */
  open(id: string, cwd: string): AcpSession {
    const session: AcpSession = {
      ...{ id, cwd, threadId: null, mode: null, status: null, waiting: null, turn: null, sandboxed: null, mcpServers: null },
      ...{ permission: START_MODE, client: null, calls: new Map(), review: null },
    };
    this.sessions.set(id, session);
    return session;
  }

  get(id: string): AcpSession | undefined {
    return this.sessions.get(id);
  }

  /** The folders of the sessions opened so far. */
  folders(): string[] {
    return [...new Set([...this.sessions.values()].map((s) => s.cwd))];
  }

  /** Keeps a turn until it ends, so the editor going away can wait for its child run to stop. */
  track<T>(turn: Promise<T>): Promise<T> {
    this.running.add(turn);
    void turn.finally(() => this.running.delete(turn)).catch(() => {});
    return turn;
  }

  /**
   * How a turn's child starts: with the editor's MCP servers in a private copy of the user config; in ask mode with
   * the hook that asks before each edit and unsandboxed command there too; in
   * plan mode (and while a thread waits on an approval, whose node must stay in its graph) with pm's output approved;
   * with the editor's file system where the editor offered it.
   */
  async childFor(session: AcpSession): Promise<YoloBinary> {
    const ask = session.permission === "ask";
    let env = this.binary.env;
    if (ask || session.mcpServers) env = await this.door.envFor(session.id, env, { ask, ...(session.mcpServers ? { mcpServers: session.mcpServers } : {}) });
    if (this.editorFs.readTextFile || this.editorFs.writeTextFile) env = await this.door.fsEnv(session.id, env);
    if (session.permission === "plan" || session.waiting === "approval") env = { ...env, YOLO_APPROVE: withPm(env.YOLO_APPROVE) };
    return { ...this.binary, env, cwd: session.cwd };
  }

  /** Stops every turn in progress as session/cancel does; resolves once their children are gone. */
  async stopAll(): Promise<void> {
    for (const session of this.sessions.values()) session.turn?.abort();
    await Promise.allSettled([...this.running]);
    this.door.close();
  }
}

// pm (the agent that writes the plan: the stories) added to the approvals the user's environment already asks for.
function withPm(given: string | undefined): string {
  return given ? `${given},pm` : "pm";
}

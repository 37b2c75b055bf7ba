import type { YoloBinary } from "../mcp/serve-child.js";
import { askEdit } from "./edit-ask.js";
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

  constructor(private readonly binary: Omit<YoloBinary, "cwd">) {
    this.door = new PermissionDoor(binary.node, (q) => askEdit(this.sessions.get(q.sessionId), q));
  }

  /** A session of this id in `cwd`, in the starting mode, replacing one of the same id. */
  open(id: string, cwd: string): AcpSession {
    const session: AcpSession = {
      ...{ id, cwd, threadId: null, mode: null, status: null, waiting: null, turn: null },
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
   * How a turn's child starts: in ask mode with the user config holding the hook that asks before each edit; in
   * plan mode (and while a thread waits on an approval, whose node must stay in its graph) with pm's output approved.
   */
  async childFor(session: AcpSession): Promise<YoloBinary> {
    let env = session.permission === "ask" ? await this.door.envFor(session.id, this.binary.env) : this.binary.env;
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

import { randomUUID } from "node:crypto";
import { agent, type AgentApp, type AgentContext, PROTOCOL_VERSION, RequestError, type ContentBlock } from "@agentclientprotocol/sdk";
import type { YoloBinary } from "../mcp/serve-child.js";
import { promptArgs, reportArgs } from "./child-args.js";
import { modeState, parseMode, START_MODE } from "./modes.js";
import { type AcpSession, promptTurn } from "./prompt-turn.js";
import { sessionCwd } from "./session-cwd.js";
import { SessionTable } from "./session-table.js";
import { announceCommands, slashCommand } from "./slash-commands.js";
import type { SlashContext } from "./slash-resume-eval.js";
import { editorServers } from "./editor-mcp.js";
import { findThread, listSessions, positionOf, replayRecord, replayThread } from "./session-load.js";
import { record } from "./session-record.js";

/**
 * yolo as an ACP agent (Zed, JetBrains, Neovim): a session is a thread of the project the editor opened; a prompt is
 * a run, the answer to its question, or a follow-up of an agent or chat thread, each done by the yolo binary in a
 * child (`--json --ci`), whose events are the only input. `session/load` takes up an existing thread by its id.
 * `stopRuns` stops every prompt turn in progress as `session/cancel` does and resolves once their children are gone.
 */
export function createYoloAcpAgent(binary: Omit<YoloBinary, "cwd">, version: string): { app: AgentApp; stopRuns: () => Promise<void> } {
  const sessions = new SessionTable(binary);
  const app = agent({ name: "yolo" })
    .onRequest("initialize", ({ params }) => {
      sessions.editorFs = params.clientCapabilities?.fs ?? {};
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          sessionCapabilities: { list: {} },
          promptCapabilities: { image: false, audio: false, embeddedContext: true },
          // An editor's stdio servers start in the runs' sandbox; remote ones are refused by name (src/acp/editor-mcp.ts).
          mcpCapabilities: { http: false, sse: false },
        },
        agentInfo: { name: "yolo", title: "yolo", version },
        authMethods: [],
      };
    })
    .onRequest("session/new", ({ params, client }) => {
      const session = sessions.open(`yolo-${randomUUID()}`, sessionCwd(params.cwd));
      const { servers, refused } = editorServers(params.mcpServers);
      session.mcpServers = servers;
      // The commands (and servers not started) are the session's: said once the editor has its id, after this answer.
      setTimeout(() => void announceCommands(session, client, refused).catch(() => {}), 0);
      return { sessionId: session.id, modes: modeState(START_MODE) };
    })
    .onRequest("session/set_mode", ({ params }) => {
      const session = sessions.get(params.sessionId);
      if (!session) throw RequestError.sessionNotFound(params.sessionId);
      // A run in progress keeps how it started; leaving ask mode lets its remaining edits through unasked.
      session.permission = parseMode(params.modeId);
      return {};
    })
    .onRequest("session/load", ({ params, client }) => loadSession(sessions, binary, params, client))
    .onRequest("session/list", async ({ params }) => {
      // Without a folder: the projects this editor opened sessions in.
      const cwds = params.cwd ? [sessionCwd(params.cwd)] : sessions.folders();
      const lists = await Promise.all(cwds.map((cwd) => listSessions({ ...binary, cwd })));
      return { sessions: lists.flat() };
    })
    .onRequest("session/prompt", async ({ params, client }) => {
      const session = sessions.get(params.sessionId);
      if (!session) throw RequestError.sessionNotFound(params.sessionId);
      if (session.turn) throw RequestError.invalidRequest(undefined, `a prompt turn is already running in session ${params.sessionId}`);
      const text = promptText(params.prompt);
      if (!text) throw RequestError.invalidParams(undefined, "the prompt has no text");
      const answered = await sessions.track(slashCommand(session, text, client, () => slashContext(sessions, binary, session, client)));
      if (answered) return answered;
      const { args, usesText } = promptArgs(session, text);
      record(session.cwd, session.id, { prompt: text, ts: new Date().toISOString() });
      // A run that stopped early (cancelled, a limit) goes on from its checkpoint; the words are not its input.
      if (!usesText)
        await client.notify("session/update", {
          sessionId: session.id,
          update: {
            sessionUpdate: "agent_message_chunk",
            content: { type: "text", text: `Continuing thread ${session.threadId} from its last checkpoint (it stopped: ${session.status}).\n\n` },
          },
        });
      session.client = client;
      return sessions.track(promptTurn({ session, args, binary: await sessions.childFor(session), client }));
    })
    .onNotification("session/cancel", ({ params }) => {
      sessions.get(params.sessionId)?.turn?.abort();
    });
  return { app, stopRuns: () => sessions.stopAll() };
}

/**
 * `session/load`: a session an editor held here replays its record; a thread's id (one the CLI ran) replays its
 * checkpoints. A waiting thread says again what it waits for (its question, or the output to approve), as a resume does.
 */
async function loadSession(
  sessions: SessionTable,
  binary: Omit<YoloBinary, "cwd">,
  params: { sessionId: string; cwd: string; mcpServers?: Parameters<typeof editorServers>[0] },
  client: AgentContext,
) {
  const cwd = sessionCwd(params.cwd);
  const session = sessions.open(params.sessionId, cwd);
  const { servers, refused } = editorServers(params.mcpServers);
  session.mcpServers = servers;
  const child = { ...binary, cwd };
  if (!(await replayRecord(session, client))) {
    const row = await findThread(child, params.sessionId);
    Object.assign(session, positionOf(row));
    await replayThread(session, row, child, client);
  }
  if (session.status === "waiting" && session.threadId) {
    session.client = client;
    await sessions.track(promptTurn({ session, args: reportArgs(session.threadId), binary: await sessions.childFor(session), client }));
  }
  await announceCommands(session, client, refused);
  return { modes: modeState(session.permission) };
}

/** How a slash command runs yolo: as the session's turns do (its mode's environment, the editor's servers), or plainly. */
async function slashContext(sessions: SessionTable, binary: Omit<YoloBinary, "cwd">, session: AcpSession, client: AgentContext): Promise<SlashContext> {
  session.client = client;
  const child = await sessions.childFor(session);
  const plain = { ...binary, cwd: session.cwd };
  // A turn's child is made when the turn starts: /resume learns first whether the thread waits on an approval.
  const turn = async (args: string[]) => promptTurn({ session, args, binary: await sessions.childFor(session), client });
  return { child, plain, turn: (args: string[]) => sessions.track(turn(args)) };
}

/** The prompt's words: its text blocks, and the text of resources the editor embedded (a selection, a file). */
export function promptText(blocks: ContentBlock[]): string {
  const parts: string[] = [];
  for (const b of blocks) {
    if (b.type === "text") parts.push(b.text);
    else if (b.type === "resource" && "text" in b.resource) parts.push(`${b.resource.uri}:\n${b.resource.text}`);
    else if (b.type === "resource_link") parts.push(b.uri);
  }
  return parts.join("\n\n").trim();
}

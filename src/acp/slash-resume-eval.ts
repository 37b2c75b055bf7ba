import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { AgentContext, PromptResponse, SessionUpdate } from "@agentclientprotocol/sdk";
import type { YoloBinary } from "../mcp/serve-child.js";
import { promptArgs, reportArgs } from "./child-args.js";
import type { AcpSession } from "./prompt-turn.js";
import { findThread, positionOf, replayThread } from "./session-load.js";

/** What a slash command that runs yolo needs: the session's child binary, and how to run a prompt turn. */
export interface SlashContext {
  child: YoloBinary;
  /** yolo as a terminal runs it (no ask hook, no editor files or servers): eval's task runs, in their worktrees. */
  plain: YoloBinary;
  turn(args: string[]): Promise<PromptResponse>;
}

const say = (text: string): SessionUpdate => ({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });

/**
 * `/resume <thread>`: the session takes up an earlier thread of the project (one the CLI ran too) and shows what it
 * did. A thread that stopped early goes on from its checkpoint at once, and one that waits says again what it waits
 * for, both as a prompt turn; otherwise the reply says what the next prompt does with it.
 */
export async function resumeThread(session: AcpSession, id: string, client: AgentContext, ctx: SlashContext): Promise<PromptResponse> {
  const tell = (text: string) => client.notify("session/update", { sessionId: session.id, update: say(text) });
  if (!id) {
    await tell("Give the thread to resume: /resume <thread> (`yolo threads` lists this project's threads).\n");
    return { stopReason: "end_turn" };
  }
  const row = await findThread(ctx.child, id).catch(() => null);
  if (!row) {
    await tell(`No thread ${id} in ${session.cwd}; \`yolo threads\` lists this project's threads.\n`);
    return { stopReason: "end_turn" };
  }
  Object.assign(session, { ...positionOf(row), review: null });
  await replayThread(session, row, ctx.child, client);
  if (row.status === "waiting") return ctx.turn(reportArgs(row.id));
  const { args, usesText } = promptArgs(session, "");
  if (!usesText) return ctx.turn(args);
  const next = args[0] === "resume" ? "The next prompt follows it up in the same thread." : "It has ended: the next prompt starts a new run.";
  await tell(`Resumed thread ${row.id}. ${next}\n`);
  return { stopReason: "end_turn" };
}

/**
 * `/eval [<task file> [<model>…]]`: runs `yolo eval --tasks` on the project's task file, its output streamed as the
 * reply (cancel stops it). The task runs work in worktrees the editor has not opened, so they run as from a terminal:
 * the editor does not see their files nor asks about their edits. Without a file it lists the task files under `.yolo/eval/` and how to build one: building
 * runs the project's suite at many commits, which belongs in a terminal, not an editor turn.
 */
export async function evalTasks(session: AcpSession, words: string[], client: AgentContext, ctx: SlashContext): Promise<PromptResponse> {
  const tell = (text: string) => client.notify("session/update", { sessionId: session.id, update: say(text) });
  const [file, ...models] = words;
  if (!file) {
    await tell(taskFilesText(session.cwd));
    return { stopReason: "end_turn" };
  }
  const turn = new AbortController();
  session.turn = turn;
  try {
    const args = ["eval", "--tasks", file, ...models.flatMap((m) => ["--model", m])];
    await tell(`Running \`yolo ${args.join(" ")}\`: each task is a run in its own worktree, judged by its tests.\n\n`);
    const exitCode = await streamYolo(ctx.plain, args, tell, turn.signal);
    return { stopReason: turn.signal.aborted ? "cancelled" : "end_turn", _meta: { yolo: { exitCode } } };
  } finally {
    session.turn = null;
  }
}

function taskFilesText(cwd: string): string {
  let files: string[] = [];
  try {
    files = readdirSync(join(cwd, ".yolo", "eval")).filter((f) => f.endsWith(".jsonl") && !f.endsWith(".discarded.jsonl"));
  } catch {
    // no eval folder yet
  }
  const have = files.length ? `Task files: ${files.map((f) => `.yolo/eval/${f}`).join(", ")}.` : "This project has no task files under .yolo/eval/ yet.";
  return `${have} Run one with /eval <task file> [model…]. Build tasks in a terminal (they run your tests at many commits): \`yolo eval --from-history <range>\` or \`yolo eval --mutate <n>\` (docs/eval.md).\n`;
}

// Runs yolo and passes its output on as it comes (stdout and stderr alike: eval's notes are on stderr); its exit code.
function streamYolo(binary: YoloBinary, args: string[], tell: (text: string) => Promise<void>, signal: AbortSignal): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(binary.node, [binary.bin, ...args], { cwd: binary.cwd, env: binary.env, stdio: ["ignore", "pipe", "pipe"] });
    let sending = Promise.resolve();
    const pass = (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      sending = sending.then(() => tell(text)).catch(() => {});
    };
    child.stdout.on("data", pass);
    child.stderr.on("data", pass);
    const abort = () => child.kill("SIGTERM");
    signal.addEventListener("abort", abort, { once: true });
    child.on("error", (error) => pass(Buffer.from(`yolo could not start: ${error.message}\n`)));
    child.on("close", (code) => {
      signal.removeEventListener("abort", abort);
      void sending.then(() => resolve(code ?? 130));
    });
  });
}

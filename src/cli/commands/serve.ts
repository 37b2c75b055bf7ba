import { spawn } from "node:child_process";
import { currentRow, databaseExists, loadSaveReply, loadStoredHistory, loadStoredThread, openIndex, openSession } from "../../engine/api-light.js";
import { ConfigError, ThreadError } from "../../errors.js";
import { evalDir } from "../../eval/settings.js";
import { threadPatch } from "../../git/thread-change.js";
import type { ResolvedConfig } from "../../config/schema.js";
import { readEvalResults } from "../../serve/eval-results.js";
import { isLoopback, newToken } from "../../serve/security.js";
import { startServer } from "../../serve/server.js";
import type { ThreadSource } from "../../serve/source.js";
import { readToolCalls } from "../../serve/tool-calls.js";
import { threadArtifactsPath } from "../../store/state-dir.js";
import type { ThreadIndex } from "../../store/thread-index.js";
import { loadResolvedConfig } from "../load-config.js";
import { resumeCommandText } from "../wording/resume-command.js";
import { killedReason } from "../wording/run-words.js";
import { listThreads } from "./threads.js";

export interface ServeFlags {
  host: string;
  port: number;
  open: boolean;
  all: boolean;
  /** YOLO_SERVE_TOKEN, read by main (deeper code never reads the environment). */
  token: string | undefined;
}

/**
 * `yolo serve`: the web view of this repository's threads (or the whole database with --all) and evals, until
 * Ctrl+C. Loopback needs no token; any other address gets YOLO_SERVE_TOKEN or a generated one, printed in the URL.
 */
export async function serveCommand(input: { cwd: string; flags: ServeFlags }): Promise<number> {
  const { flags } = input;
  const token = flags.token || (isLoopback(flags.host) ? null : newToken());
  if (!isLoopback(flags.host) && !token)
    throw new ConfigError(`yolo serve --host ${flags.host} needs a token; set YOLO_SERVE_TOKEN or leave it empty to have one generated.`);
  const config = await loadResolvedConfig(input.cwd);
  const index = databaseExists(config) ? await openIndex(config) : null;
  const server = await startServer(threadSource(config, index, flags.all), { host: flags.host, port: flags.port, token });
  process.stdout.write(`yolo serve: ${server.url}\n`);
  if (token && !flags.token) process.stdout.write("The token was generated for this start (set YOLO_SERVE_TOKEN to choose one).\n");
  process.stdout.write("Ctrl+C stops it.\n");
  if (flags.open) openBrowser(server.url);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await server.close();
  await index?.close();
  return 0;
}

/** The server's readings, each the one `yolo threads`, `show`, `history` and `resume --answer` use. */
function threadSource(config: ResolvedConfig, index: ThreadIndex | null, all: boolean): ThreadSource {
  const none = <T>(value: T) => Promise.resolve(value);
  return {
    price: config.model.price,
    resumeCommand: (id) => resumeCommandText({ thread: id, awaits: null }),
    list: async () => (index ? Promise.all((await listThreads(index.threads, config, all)).map((r) => currentRow(index, r, killedReason))) : []),
    row: async (id) => {
      const row = index ? await index.threads.get(id) : null;
      return row && index ? currentRow(index, row, killedReason) : null;
    },
    state: async (id) => {
      if (!index) return null;
      try {
        return await (await loadStoredThread()).readThreadState(config, index, id);
      } catch (error) {
        if (error instanceof ThreadError) return null;
        throw error;
      }
    },
    history: async (id) => (index ? (await loadStoredHistory()).readThreadHistory(config, index, id) : none([])),
    diff: async (row) => {
      const change = await threadPatch({ root: config.root, startCommit: row.startCommit, branch: row.branch });
      return change.ok ? { patch: change.value } : { note: `No diff: ${change.note}.` };
    },
    reply: async (id, reply) => {
      const session = await openSession(config);
      try {
        await (await loadSaveReply()).saveReply(config, session, id, reply);
      } finally {
        await session.close();
      }
    },
    toolCalls: (row) => readToolCalls(threadArtifactsPath(row.artifacts ?? config.stateDir, row.id)),
    evals: () => readEvalResults(evalDir(config)),
  };
}

// `--open`: the desktop's opener, detached; if there is none the printed URL is still there.
function openBrowser(url: string): void {
  const command = process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  const child = spawn(command, [url], { detached: true, stdio: "ignore" });
  child.on("error", () => process.stderr.write(`yolo serve: could not start ${command}; open ${url} yourself.\n`));
  child.unref();
}

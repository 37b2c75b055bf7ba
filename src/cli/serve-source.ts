import { isAbsolute, join, relative } from "node:path";
import { currentRow, databaseExists, loadSaveReply, loadStoredHistory, loadStoredThread, openIndex, openSession } from "../engine/api-light.js";
import { ThreadError } from "../errors.js";
import { evalDir } from "../eval/settings.js";
import { taskFiles } from "../eval/task-plan.js";
import { threadPatch } from "../git/thread-change.js";
import type { ResolvedConfig } from "../config/schema.js";
import { readEvalResults } from "../serve/eval-results.js";
import type { EvalThread, ThreadSource } from "../serve/source.js";
import { readToolCalls } from "../serve/tool-calls.js";
import { threadArtifactsPath } from "../store/state-dir.js";
import type { ThreadIndex } from "../store/thread-index.js";
import { resumeCommandText } from "./wording/resume-command.js";
import { killedReason } from "./wording/run-words.js";
import { listThreads } from "./commands/threads.js";
import { listedRows } from "./listed-rows.js";

/** The server's readings, each the one `yolo threads`, `show`, `history` and `resume --answer` use. */
export function threadSource(config: ResolvedConfig, index: ThreadIndex | null, all: boolean): ThreadSource {
  const none = <T>(value: T) => Promise.resolve(value);
  const list = index ? listedRows(index, () => listThreads(index.threads, config, all)) : () => none([]);
  return {
    price: config.model.price,
    resumeCommand: (id) => resumeCommandText({ thread: id, awaits: null }),
    list,
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
    stateVersion: async (id) => (index?.stateVersion ? index.stateVersion(id) : null),
    keepsReadings: index?.stateVersion !== undefined,
    latestCheckpoint: async (id) => (index ? index.latestCheckpointId(id) : null),
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
    evalThread: (name, modelDir, task) => evalThread(config, name, modelDir, task),
  };
}

/**
 * An eval task's thread. `yolo eval` runs each task as an ordinary thread in the task's worktree, so its database and
 * artifacts are the worktree's (a shared PostgreSQL database stays the same): the config is the eval's, moved there.
 * Only a task the eval's stored results name is opened: the names in the address never make a path by themselves.
 */
async function evalThread(config: ResolvedConfig, name: string, modelDir: string, task: string): Promise<EvalThread | null> {
  const reading = readEvalResults(evalDir(config)).find((e) => e.name === name);
  const result = reading?.results.find((r) => r.modelDir === modelDir && r.task === task);
  if (!reading || !result?.thread || /[/\\]|^\.\.?$/.test(task)) return null;
  const at = configAt(config, taskFiles(join(evalDir(config), "runs", reading.name, result.modelDir), result.task).dir);
  if (!databaseExists(at)) return null;
  const index = await openIndex(at);
  const row = await index.threads.get(result.thread);
  if (!row) {
    await index.close();
    return null;
  }
  return { source: threadSource(at, index, true), row: await currentRow(index, row, killedReason), eval: reading.name, result, close: () => index.close() };
}

// The config as the task's own run resolved it in its worktree: paths inside the project move with the root.
function configAt(config: ResolvedConfig, root: string): ResolvedConfig {
  const moved = (path: string) => {
    const rel = relative(config.root, path);
    return rel.startsWith("..") || isAbsolute(rel) ? path : join(root, rel);
  };
  const database = config.database.kind === "sqlite" ? { kind: "sqlite" as const, path: moved(config.database.path) } : config.database;
  return { ...config, root, startDir: root, gitRoot: undefined, dbPath: moved(config.dbPath), stateDir: moved(config.stateDir), database };
}

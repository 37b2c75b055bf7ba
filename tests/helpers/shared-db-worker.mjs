// One of the processes of tests/reliability/shared-database.test.ts: runs `count` threads one after another
// through the built engine, each with its own connection to the shared database, as separate `yolo run`s would.
// argv: <root> <baseURL> <prefix> <count>. Prints one JSON line: { passed, failures: [{ thread, status, reason }] }.
import { join } from "node:path";
import { resolveConfig } from "../../dist/config/resolve.js";
import { createEngineDeps } from "../../dist/engine/create-deps.js";
import { launch } from "../../dist/engine/run/launch.js";
import { openSession } from "../../dist/engine/session.js";
import { loadWorkflowAgents } from "../../dist/agents/workflow-agents.js";

const [root, baseURL, prefix, count] = process.argv.slice(2);
const fileConfig = {
  model: { maxRetries: 0 },
  sandbox: "off",
  workflow: {
    nodes: { dev: { kind: "agent" } },
    edges: [
      { from: "start", to: "dev" },
      { from: "dev", to: "end" },
    ],
  },
};
// YOLO_DATABASE_URL (from the test) puts the threads on PostgreSQL instead of the project's SQLite file.
const env = {
  OPENAI_BASE_URL: baseURL,
  PATH: process.env.PATH,
  YOLO_USER_CONFIG: "",
  ...(process.env.YOLO_DATABASE_URL ? { YOLO_DATABASE_URL: process.env.YOLO_DATABASE_URL } : {}),
};
const config = resolveConfig({ root, fileConfig, file: null, env, userConfig: { file: null, config: { sandbox: "off" } } });
const agents = loadWorkflowAgents(config);
let passed = 0;
const failures = [];
for (let i = 0; i < Number(count); i++) {
  const threadId = `${prefix}-${String(i).padStart(3, "0")}`;
  const logFile = join(config.stateDir, "logs", `${threadId}.log`);
  try {
    const session = await openSession(config);
    try {
      const deps = createEngineDeps({ config, agents, logFile, env: { PATH: process.env.PATH } });
      // The engine built here: a plan whose engine is loaded already (tests/helpers/loaded-plan.ts, in JavaScript).
      const engine = Promise.resolve({ deps, session });
      const plan = {
        config: deps.config,
        agents: deps.agents,
        threads: session.threads,
        rows: null,
        session: () => engine.then((e) => e.session),
        facts: { sandbox: deps.sandboxStatus, gates: deps.gates },
        env: deps.baseEnv,
        logFile,
        // The words a front end gives: a run that ends resumable (a failure) then reports its own reason.
        words: { resumeCommand: (fact) => `yolo resume ${fact.thread}`, errorReason: (error) => error.message },
        origin: {},
        engine: () => engine,
        engineAsked: () => engine,
      };
      const handle = launch(plan, { threadId, start: { requirement: `task ${threadId}` } });
      for await (const _ of handle.events);
      const result = await handle.result;
      if (result.status === "passed") passed++;
      else failures.push({ thread: threadId, status: result.status, reason: result.reason });
    } finally {
      await session.close();
    }
  } catch (error) {
    failures.push({ thread: threadId, status: "thrown", reason: String(error?.stack ?? error) });
  }
}
console.log(JSON.stringify({ passed, failures }));

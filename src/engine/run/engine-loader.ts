import type { EngineDeps } from "../deps.js";
import type { NoticeWords } from "../notices.js";
import type { Session } from "../session.js";
import type { RunFacts } from "./facts.js";
import type { Threaded } from "./prepare-config.js";
import type { RunSetup } from "./workspace-setup.js";

type Engine = { deps: EngineDeps; session: Session };

/**
 * The engine's deps and the whole session, built once; a new thread's first leg asks for them after run.started. The
 * workspace's notices are said once, at the start of the first leg (a question answered inline starts another).
 */
export function engineLoader(input: {
  thread: Threaded;
  logFile: string;
  session: () => Promise<Session>;
  setup: RunSetup;
  facts: RunFacts;
  noticeWords: NoticeWords;
}) {
  let engine = null as Promise<Engine & { notices: string[] }> | null;
  const load = () => {
    engine ??= Promise.all([import("../create-deps.js"), input.session(), input.setup.notices()]).then(([{ createEngineDeps }, session, setupNotices]) => {
      const { thread, logFile, setup, facts, noticeWords } = input;
      const deps = createEngineDeps({ config: thread.config, agents: thread.agents, logFile, env: process.env, noticeWords, ...setup.deps, facts });
      const notices = deps.notices ?? [];
      deps.notices = [...notices, ...setupNotices];
      return { deps, session, notices };
    });
    return engine;
  };
  const plain = (built: Promise<Engine>) => built.then(({ deps, session }) => ({ deps, session }));
  return {
    engine: () => plain(load()),
    engineAsked: () => (engine ? plain(engine) : null),
    /** After a leg: later legs repeat the engine's own notices (the sandbox), not the workspace's. */
    resetNotices: async () => {
      const built = await engine?.catch(() => null);
      if (built) built.deps.notices = built.notices;
    },
  };
}

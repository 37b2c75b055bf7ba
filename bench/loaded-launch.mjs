import { launch } from "../dist/engine/run/launch.js";

/** `launch` for a bench that built the engine itself (its deps and session): a plan whose engine is loaded already. */
export function launchLoaded({ deps, session, threadId, start, resume, logFile, words }) {
  const engine = Promise.resolve({ deps, session });
  const { requirement = "", profile, ...origin } = start ?? {};
  const plan = {
    config: deps.config,
    agents: deps.agents,
    threads: session.threads,
    rows: null,
    session: () => Promise.resolve(session),
    facts: { sandbox: deps.sandboxStatus, gates: deps.gates },
    env: deps.baseEnv,
    logFile,
    words,
    origin,
    engine: () => engine,
    engineAsked: () => engine,
  };
  return launch(plan, { threadId, start: start ? { requirement, profile } : undefined, resume });
}

import type { EngineDeps } from "../../src/engine/deps.js";
import type { LaunchPlan } from "../../src/engine/run/launch.js";
import type { RunOptions } from "../../src/engine/run/options.js";
import type { Session } from "../../src/engine/session.js";

/** The launch plan of a caller that built the engine itself (its deps and session): every leg runs with it loaded. */
export function loadedPlan(
  deps: EngineDeps,
  session: Session,
  opts: { logFile: string; words?: RunOptions["words"]; origin?: LaunchPlan["origin"] },
): LaunchPlan {
  const engine = Promise.resolve({ deps, session });
  return {
    config: deps.config,
    agents: deps.agents,
    threads: session.threads,
    rows: null,
    session: () => Promise.resolve(session),
    facts: { sandbox: deps.sandboxStatus, gates: deps.gates },
    env: deps.baseEnv,
    logFile: opts.logFile,
    words: opts.words as RunOptions["words"],
    origin: opts.origin ?? {},
    engine: () => engine,
    engineAsked: () => engine,
  };
}

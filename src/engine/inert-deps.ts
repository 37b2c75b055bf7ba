import type { ResolvedConfig } from "../config/schema.js";
import type { EngineDeps } from "./deps.js";

// Light (no LangGraph): the deps a leg reads a thread with before its engine loads, and those of inspected graphs.

/** Deps for a graph that is read, never run (show, history, and the tests that compile workflows): its nodes are never called. */
export function inertDeps(config: ResolvedConfig): EngineDeps {
  const never = () => {
    throw new Error("this graph is for inspection only");
  };
  return {
    config,
    agents: new Map(),
    createModel: never,
    classifyError: () => null,
    gates: [],
    baseEnv: {},
    secretEnvNames: [],
    logger: { info() {}, warn() {}, error() {} },
  };
}

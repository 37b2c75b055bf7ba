/**
 * How many fix attempts dev has made: `fixAttempts` counts the gate's blocks, and the latest block is only fixed
 * when the gate passed since (a thread that ended failed, or waits for its fix, made one fewer).
 */
export function fixAttemptsMade(state: { fixAttempts: number; gateBlocked: boolean }): number {
  return state.gateBlocked ? Math.max(0, state.fixAttempts - 1) : state.fixAttempts;
}

import type { RunHandle } from "../engine/api.js";
import type { StopMode } from "../ui/renderer.js";
import { hardExit } from "./hard-exit.js";

export const STOP_NOTES: Record<StopMode, string> = {
  "after-step": "stopping after the current step (Ctrl+C again to stop now)",
  now: "stopping now",
};

export type StopControl = ReturnType<typeof stopControl>;

/**
 * Ctrl+C (SIGINT, or typed into the live view) once: the running step finishes and is checkpointed, then the
 * run stops with exit 130; twice: it stops at once (the last completed step stands); a third time: the
 * process exits. SIGTERM stops at once.
 */
export function stopControl() {
  let handle: RunHandle | null = null;
  let presses = 0;
  let tell: (mode: StopMode) => void = () => {};
  // Applies the presses so far to the running leg.
  const apply = () => {
    if (!handle || presses === 0) return;
    if (presses === 1) handle.stopAfterStep();
    else handle.cancel();
  };
  const press = (signal: "SIGINT" | "SIGTERM") => {
    presses = signal === "SIGTERM" ? Math.max(presses + 1, 2) : presses + 1;
    if (presses > 2) hardExit(130);
    apply();
    tell(presses === 1 ? "after-step" : "now");
  };
  const onSigint = () => press("SIGINT");
  const onSigterm = () => press("SIGTERM");
  process.on("SIGINT", onSigint);
  process.on("SIGTERM", onSigterm);
  return {
    press,
    notify(fn: (mode: StopMode) => void) {
      tell = fn;
    },
    attach(h: RunHandle | null) {
      handle = h;
      apply();
    },
    requested: () => presses > 0,
    dispose() {
      process.off("SIGINT", onSigint);
      process.off("SIGTERM", onSigterm);
    },
  };
}

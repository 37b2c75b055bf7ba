/**
 * The light CLI (dist/cli/light.cjs, which bin/yolo.js runs for `threads`, `show`, `history` and `graph`) holds only
 * what those commands need on their common path. Where one needs a module it left out (LangGraph, PostgreSQL, zod,
 * the agents' loader, another command), reading that module throws this, before the command has written anything;
 * bin/yolo.js then runs the same arguments through the full CLI (dist/cli/main.js).
 */
export const HAND_OFF = Symbol.for("yolo.hand-off");

export class HandOff extends Error {
  readonly [HAND_OFF] = true;
  constructor(readonly module: string) {
    super(`the light CLI does not hold ${module}: the full CLI runs this command`);
    this.name = "HandOff";
  }
}

/** True for the light CLI's hand-off (also across bundles: the mark is a registered symbol, not a class). */
export function isHandOff(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[HAND_OFF] === true;
}

import { gatesToRun, leftOutFix } from "../gates/missing-tool.js";
import { readingResults } from "./gate-reading.js";
import type { CheckResult, DoctorCheck } from "./types.js";

/** The gates tea's node would run: configured, or detected from the project (those whose program is missing are left out, said apart). */
export const gatesCheck: DoctorCheck = {
  id: "gates",
  async run({ config, env }): Promise<CheckResult[]> {
    const { gates, leftOut } = gatesToRun(config.gates, config.root, env.PATH);
    const source = config.gates ? "configured" : "detected";
    const left = leftOut.map(
      (l): CheckResult => ({
        id: `gates:left-out:${l.gate.name}`,
        title: `gate ${l.gate.name}`,
        status: "warn",
        detail: l.replacedBy
          ? `detected as ${l.gate.command}; runs ${l.replacedBy} instead: ${l.program} is not installed (not found ${l.where})`
          : `detected, left out of runs: ${l.program} is not installed (not found ${l.where})`,
        fix: leftOutFix(l),
      }),
    );
    if (!gates.length) {
      return [
        {
          id: "gates",
          title: "gates",
          status: "warn",
          detail: leftOut.length ? "no detected gate can run here: tea's verdict alone decides" : "no gate configured or detected: tea's verdict alone decides",
          fix: 'Add gates: [{ name: "test", command: "…" }] to yolo.config.ts.',
        },
        ...left,
      ];
    }
    return [
      { id: "gates", title: "gates", status: "ok", detail: `${source}: ${gates.map((g) => `${g.name} (${g.command})`).join(", ")}` },
      ...left,
      ...readingResults(config.stateDir),
    ];
  },
};

import { defaultGates } from "../gates/detect.js";
import type { CheckResult, DoctorCheck } from "./types.js";

/** The gates tea's node would run: configured, or detected from the project. */
export const gatesCheck: DoctorCheck = {
  id: "gates",
  async run({ config }): Promise<CheckResult[]> {
    const gates = config.gates ?? defaultGates(config.root);
    const source = config.gates ? "configured" : "detected";
    if (!gates.length) {
      return [
        {
          id: "gates",
          title: "gates",
          status: "warn",
          detail: "no gate configured or detected: tea's verdict alone decides",
          fix: 'Add gates: [{ name: "test", command: "…" }] to yolo.config.ts.',
        },
      ];
    }
    return [{ id: "gates", title: "gates", status: "ok", detail: `${source}: ${gates.map((g) => `${g.name} (${g.command})`).join(", ")}` }];
  },
};

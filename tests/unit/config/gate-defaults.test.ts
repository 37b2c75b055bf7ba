import { describe, expect, it } from "vitest";
import { withGateDefaults, type GateInput } from "../../../src/config/gate-defaults.js";
import { gateSchema } from "../../../src/config/schema.js";

// resolveConfig fills gate defaults without zod (so commands without a config file never load it): the result
// must stay what the schema itself makes of the same gate.
describe("gate defaults without zod", () => {
  const gates: GateInput[] = [
    { name: "t", command: "npm test" },
    { name: "lint", command: "npm run lint", required: false },
    { name: "slow", command: "make check", timeoutS: 30, required: true },
    { name: "j", command: "mvn test", reports: ["target/*.xml"], baseline: "strict" },
  ];
  it.each(gates.map((g) => [g.name, g]))("gate %s: the same as gateSchema.parse", (_, gate) => {
    expect(withGateDefaults(gate as GateInput)).toStrictEqual(gateSchema.parse(gate));
  });
});

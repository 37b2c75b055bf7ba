import { stringify } from "yaml";
import { z } from "zod";
import { DISPLAYS } from "./displays.js";
import { gateLine, HISTORY_LINES } from "./history-lines.js";
import { capabilitiesOf } from "./catalog.js";
import { defineRole } from "./types.js";
import { parseYamlEdit } from "./yaml-edit.js";

const fields = {
  verdict: z.enum(["PASS", "CONCERNS", "FAIL"]).describe("PASS, CONCERNS or FAIL; a red required gate is never PASS"),
  findings: z.array(z.string()).describe("what you found, most important first"),
};

/**
 * tea (the test architect): judges the change against the acceptance criteria and the gate results yolo ran.
 * A red required gate or a FAIL verdict blocks, whatever else the model says.
 */
export const tea = defineRole({
  id: "tea",
  kind: "tea",
  title: "Test architect",
  fields,
  write: (h, { node, state, gates, gateVerdict }) => {
    const { verdict } = h;
    const findings = h.findings ?? [];
    const gateText = gateLine(gates ?? state.lastGates);
    const judged = gateVerdict(verdict);
    return {
      update: { verdict, verdictBy: node, findings, ...judged },
      summary: `verdict ${verdict}, ${gateText}${judged.gateBlocked ? " — blocked" : ""}`,
    };
  },
  brief: {
    reads: ["requirements", "stories", "decisions", "notes", "change", "files-changed", "gate-results"],
    expected:
      "Judge the change against the acceptance criteria and the gate results, then call handoff with `verdict` (PASS, CONCERNS or FAIL) and `findings`.",
  },
  review: {
    artifact: (state) => stringify({ verdict: state.verdict, findings: state.findings }),
    apply: (content) => {
      const edit = parseYamlEdit({ fields }, content);
      if ("error" in edit) return edit;
      const h = edit.handoff;
      return { update: { verdict: h.verdict, findings: h.findings } };
    },
  },
  history: HISTORY_LINES.tea,
  display: DISPLAYS.tea,
  ...capabilitiesOf("tea"),
});

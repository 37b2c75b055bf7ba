import { stringify } from "yaml";
import { z } from "zod";
import { gateBlocks } from "../gates/judge.js";
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
  write: (h, { node, state, gates, gateDecision }) => {
    const { verdict } = h;
    const findings = h.findings ?? [];
    const gateText = gateLine(gates ?? state.lastGates);
    if (gates) {
      const blocked = gates.some(gateBlocks) || verdict === "FAIL";
      return {
        update: { verdict, verdictBy: node, findings, ...gateDecision(gates, blocked) },
        summary: `verdict ${verdict}, ${gateText}${blocked ? " — blocked" : ""}`,
      };
    }
    // Judging the results of a gate node that ran before: it already counted a red gate as a fix attempt.
    const failsGreen = verdict === "FAIL" && !state.gateBlocked;
    const blocked = state.gateBlocked || verdict === "FAIL";
    return {
      update: { verdict, verdictBy: node, findings, gateBlocked: blocked, fixAttempts: failsGreen ? state.fixAttempts + 1 : state.fixAttempts },
      summary: `verdict ${verdict}, ${gateText}${blocked ? " — blocked" : ""}`,
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

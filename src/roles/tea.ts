import type { GateResult } from "../events/schema.js";
import { inlineMarkdown as md } from "../text/markdown.js";
import { defineRole } from "./types.js";

/** `gates 2/3 passed`: the judge's summary and history line. */
const gateLine = (results: Pick<GateResult, "passed">[]) =>
  results.length ? `gates ${results.filter((g) => g.passed).length}/${results.length} passed` : "no gates";

/**
 * tea (the test architect): judges the change against the acceptance criteria and the gate results yolo ran.
 * A red required gate or a FAIL verdict blocks, whatever else the model says.
 */
export const tea = defineRole({
  id: "tea",
  kind: "tea",
  title: "Test architect",
  pipeline: true,
  defaultAgent: "tea.md",
  judgesGates: true,
  fields: (z) => ({
    verdict: z.enum(["PASS", "CONCERNS", "FAIL"]).describe("PASS, CONCERNS or FAIL; a red required gate is never PASS"),
    findings: z.array(z.string()).describe("what you found, most important first"),
  }),
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
    artifact: (state, _node, kit) => kit.yaml({ verdict: state.verdict, findings: state.findings }),
    apply: (content, _node, kit) => {
      const edit = kit.edit(content);
      if ("error" in edit) return edit;
      const h = edit.handoff;
      return { update: { verdict: h.verdict, findings: h.findings } };
    },
  },
  history: (v) => `verdict ${v.verdict}, ${gateLine(v.lastGates)}${v.lastGates.length && v.gateBlocked ? " — blocked" : ""}`,
  // Shown after the gate results it judged (`judgesGates`); `yolo show` leaves out a verdict without findings.
  display: (v) =>
    v.verdict
      ? [
          {
            title: `Verdict: ${v.verdict}`,
            text: v.findings.map((f) => `- ${f}`),
            markdown: { heading: `Verdict of the test architect: **${v.verdict}**`, lines: v.findings.map((f) => `- ${md(f)}`) },
          },
        ]
      : [],
});

import { interrupt } from "@langchain/langgraph";
import type { GateResult } from "../../events/schema.js";
import { ownName } from "../../gates/known-failures.js";
import type { FailureRuling } from "../../state/types.js";
import { toReviewResponse } from "../review.js";
import type { ApprovalPayload } from "./human-node.js";

/** A test the coding agent (the default pipeline's dev) claimed is not part of the task, in the gate where it still blocks. */
export interface OpenClaim {
  id: string;
  gate: string;
}

/**
 * The tests the coding agent's last handoff claimed unrelated that fail now as they did at the baseline, in a gate where they
 * block, and that no human has ruled on yet. A claim names a test by its full id or its own name, never a pattern.
 */
export function openClaims(claims: readonly string[], rulings: readonly FailureRuling[], gates: readonly GateResult[]): OpenClaim[] {
  if (!claims.length) return [];
  const out: OpenClaim[] = [];
  for (const g of gates) {
    if (!g.blocking || g.preExistingAllowed) continue;
    const gone = new Set(g.missing ?? []);
    for (const id of g.preExisting ?? []) {
      if (gone.has(id) || !claims.some((c) => c === id || c === ownName(id))) continue;
      if (rulings.some((r) => r.id === id && r.gate === g.name)) continue;
      out.push({ id, gate: g.name });
    }
  }
  return out;
}

/**
 * The approval a human is asked for claims `claimedBy` (the node whose handoff made them: the default pipeline's dev)
 * made: which tests, in which gate, and what approving or rejecting does.
 */
export function claimsPayload(node: string, open: readonly OpenClaim[], claimedBy: string): ApprovalPayload {
  const names = open.map((c) => `${c.id} (gate ${c.gate})`);
  const one = open.length === 1;
  return {
    kind: "approval",
    node,
    prompt: `${claimedBy} says ${one ? "a test that was failing before the run is" : `${open.length} tests that were failing before the run are`} unrelated to the task, and ${one ? "it still fails" : "they still fail"} as at the baseline: ${names.join("; ")}. Approve to accept ${one ? "it" : "them"} as known failures for this thread (no longer blocking), or reject with a reason: ${one ? "it stays a target" : "they stay targets"} and ${claimedBy} gets the reason.`,
    reviews: null,
    artifact: `Tests ${claimedBy} claims are unrelated to the task, failing now as at the baseline:\n${names.map((n) => `- ${n}`).join("\n")}\n`,
    failureClaims: open.map((c) => c.id),
  };
}

/**
 * Asks a human about the claims of `claimedBy` (an approval interrupt: inline, `resume --approve` / `--reject "why"`,
 * or an `--answers` entry; under `--ci` without one the run waits, exit 3). Approved, the tests are known failures
 * for the rest of the thread; rejected, they stay targets and the claiming agent reads the reason. The node re-runs
 * from its top when the answer arrives, so the gates that showed the claims still stand are run again first.
 */
export function askAboutClaims(node: string, open: readonly OpenClaim[], claimedBy: string): FailureRuling[] {
  const payload = claimsPayload(node, open, claimedBy);
  let problem: string | undefined;
  for (;;) {
    const response = toReviewResponse(interrupt(problem === undefined ? payload : { ...payload, problem }));
    if (response === null || response.action === "edit") {
      problem = 'a claim that tests are unrelated can only be approved or rejected: send "approve" or {"action":"reject","reason":"…"}';
      continue;
    }
    const accepted = response.action === "approve";
    const reason = response.action === "reject" ? response.reason : null;
    return open.map((c) => ({ id: c.id, gate: c.gate, accepted, by: node, reason, claimedBy }));
  }
}

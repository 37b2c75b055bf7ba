import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { YoloEvent } from "../events/schema.js";

type GateResult = Extract<YoloEvent, { type: "gate.result" }>["gate"];

/** Each group of tests a judged gate run names, with the words the editor shows for it. */
const GROUPS = [
  ["fixed", "Fixed"],
  ["regressed", "Regressed"],
  ["stillFailing", "Still failing"],
  ["newFailures", "New and failing"],
  ["newPassing", "New and passing"],
  ["knownFailures", "Known failures (not blocking)"],
] as const;

/** A gate run per test, judged against the baseline: what an editor can show as a list, not only as text. */
export interface GateTests {
  fixed: string[];
  regressed: string[];
  stillFailing: string[];
  newFailures: string[];
  newPassing: string[];
  knownFailures: string[];
}

/** A gate command starting, as a tool call of kind `execute`. */
export function gateCall(e: Extract<YoloEvent, { type: "gate.started" }>): SessionUpdate {
  return {
    sessionUpdate: "tool_call",
    toolCallId: gateCallId(e.node, e.name, e.attempt, e.baseline === true),
    title: `gate ${e.name}${e.baseline ? " (baseline)" : ""}: ${e.command}`,
    kind: "execute",
    status: "in_progress",
    rawInput: { command: e.command },
  };
}

/**
 * A gate's result, ending its tool call: its counts and outcome as text, each group of tests (fixed, regressed,
 * still failing, …) as a list under its heading, and the same groups as data in `rawOutput` (with the counts
 * and how the results were read) for an editor that draws them itself.
 */
export function gateResult(e: Extract<YoloEvent, { type: "gate.result" }>): SessionUpdate {
  const g = e.gate;
  const tests = gateTests(g);
  const counts = g.passedCount !== null || g.failedCount !== null ? ` (${g.passedCount ?? 0} passed, ${g.failedCount ?? 0} failed)` : "";
  const groups = GROUPS.filter(([key]) => tests[key].length).map(([key, title]) => `${title} (${tests[key].length}):\n${list(tests[key])}`);
  // Before there is a baseline to judge against (the baseline itself), the failures as they are.
  const failures = !groups.length && g.failures.length ? [list(g.failures)] : [];
  const text = [`${g.name}: ${g.passed ? "passed" : "failed"}, exit ${g.exitCode ?? "none"}${counts}`, ...groups, ...failures].join("\n");
  return {
    sessionUpdate: "tool_call_update",
    toolCallId: gateCallId(e.node, g.name, g.attempt, g.baseline === true),
    status: g.passed ? "completed" : "failed",
    content: [{ type: "content", content: { type: "text", text } }],
    rawOutput: {
      gate: g.name,
      passed: g.passed,
      baseline: g.baseline === true,
      exitCode: g.exitCode,
      passedCount: g.passedCount,
      failedCount: g.failedCount,
      reading: g.reading ?? null,
      ...tests,
    },
  };
}

function gateTests(g: GateResult): GateTests {
  return {
    fixed: g.fixed ?? [],
    regressed: g.regressions ?? [],
    stillFailing: g.preExisting ?? [],
    newFailures: g.newFailures ?? [],
    newPassing: g.newPassing ?? [],
    knownFailures: (g.knownFailures ?? []).map((k) => k.id),
  };
}

// At most ten names a group, and how many more.
function list(names: string[]): string {
  const shown = names.slice(0, 10).map((n) => `- ${n}`);
  return [...shown, ...(names.length > 10 ? [`- … ${names.length - 10} more`] : [])].join("\n");
}

function gateCallId(node: string, name: string, attempt: number, baseline: boolean): string {
  return `gate:${node}:${name}:${attempt}${baseline ? ":baseline" : ""}`;
}

import type { StoryRun } from "../state/story-runs.js";
import type { ReportData, ReportGate } from "./data.js";
import { ENVIRONMENT_WORDS, gateBlocks, judgementNotes } from "../events/judgement-words.js";
import { failsFinally, type ReportTest } from "./test-states.js";
import { limitKindForExitCode } from "../events/outcome.js";
import { xmlAttr, xmlText } from "./xml.js";

/**
 * The thread's gate runs as JUnit XML, which CI systems show natively: one `<testsuite>` per attempt, one
 * `<testcase>` per gate; a failed or timed-out gate is a `<failure>` carrying the failing tests and the end of
 * its output. An optional gate that failed is a failure too (marked as optional: it did not block the run).
 */
export function renderJunit(r: ReportData): string {
  const perTest = r.tests ?? new Map<string, ReportTest[]>();
  // A gate whose tests are known one by one is shown as its tests (their final state), not as a gate per attempt.
  const gateRuns = r.gates.filter((g) => !perTest.has(g.name));
  const attempts = [...new Set(gateRuns.map((g) => g.attempt))].sort((a, b) => a - b);
  const stories = r.storyRuns ?? [];
  const tests = [...perTest.values()].flat();
  const failed = gateRuns.filter(isFailure).length + stories.filter((s) => s.status === "failed").length + tests.filter((t) => failsFinally(t.state)).length;
  // Which limit stopped the thread (steps, turns, budget, time, loop), for a pipeline that reads the report.
  const limit = r.status === "limit" ? limitKindForExitCode(r.exitCode) : null;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttr(`yolo ${r.thread}`)}" tests="${gateRuns.length + stories.length + tests.length}" failures="${failed}" errors="0" time="${secs(total(r.gates))}">`,
  ];
  for (const [gate, list] of perTest) lines.push(...testSuite(r, gate, list, limit));
  for (const attempt of attempts) {
    const gates = gateRuns.filter((g) => g.attempt === attempt);
    lines.push(
      `  <testsuite name="${xmlAttr(`yolo gates, attempt ${attempt}`)}" tests="${gates.length}" failures="${gates.filter(isFailure).length}" errors="0" skipped="0" time="${secs(total(gates))}">`,
      "    <properties>",
      `      <property name="yolo.thread" value="${xmlAttr(r.thread)}"/>`,
      `      <property name="yolo.attempt" value="${attempt}"/>`,
      `      <property name="yolo.status" value="${xmlAttr(r.status)}"/>`,
      ...(limit ? [`      <property name="yolo.limit" value="${limit}"/>`] : []),
      ...(r.exitCode !== null ? [`      <property name="yolo.exitCode" value="${r.exitCode}"/>`] : []),
      "    </properties>",
    );
    for (const g of gates) lines.push(...testcase(g));
    lines.push("  </testsuite>");
  }
  if (stories.length) lines.push(...storySuite(r.thread, stories));
  lines.push("</testsuites>");
  return `${lines.join("\n")}\n`;
}

/**
 * One gate's tests as a CI test viewer shows them: one `<testcase>` per test in its final state — a `<failure>` for
 * a regression, a target still failing or a new failure, `<skipped>` for a known failure — and the gate's attempts,
 * blocked or not, as the suite's properties and output.
 */
function testSuite(r: ReportData, gate: string, tests: ReportTest[], limit: string | null): string[] {
  const runs = r.gates.filter((g) => g.name === gate && !g.baseline);
  const last = runs.at(-1);
  const failures = tests.filter((t) => failsFinally(t.state)).length;
  const skipped = tests.filter((t) => t.state === "known failure" || t.state === "not run").length;
  const lines = [
    `  <testsuite name="${xmlAttr(`yolo gate ${gate}`)}" tests="${tests.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${secs(last?.durationMs ?? 0)}">`,
    "    <properties>",
    `      <property name="yolo.thread" value="${xmlAttr(r.thread)}"/>`,
    `      <property name="yolo.gate" value="${xmlAttr(gate)}"/>`,
    `      <property name="yolo.status" value="${xmlAttr(r.status)}"/>`,
    ...(limit ? [`      <property name="yolo.limit" value="${limit}"/>`] : []),
    ...(r.exitCode !== null ? [`      <property name="yolo.exitCode" value="${r.exitCode}"/>`] : []),
    ...runs.map((g) => `      <property name="yolo.attempt.${g.attempt}" value="${xmlAttr(attemptWords(g))}"/>`),
    "    </properties>",
  ];
  for (const t of tests) lines.push(...testCaseOf(t, last));
  lines.push(`    <system-out>${xmlText(runs.map((g) => `attempt ${g.attempt}: ${attemptWords(g)}`).join("\n"))}</system-out>`, "  </testsuite>");
  return lines;
}

/** "blocked: still failing (failing before the run): adds" — one attempt of a gate, as yolo judged it. */
function attemptWords(g: ReportGate): string {
  const verdict = gateBlocks(g) ? "blocked" : g.passed ? "passed" : "failed, not blocking";
  const notes = judgementNotes(g, 5);
  return notes.length ? `${verdict}: ${notes.join(" | ")}` : verdict;
}

// `file > suite > name`: the classname is the gate and the file or suite, the name the test's own.
function testCaseOf(t: ReportTest, last: ReportGate | undefined): string[] {
  const cut = Math.max(t.id.lastIndexOf(" > "), t.id.lastIndexOf("::"));
  const suite = cut > 0 ? t.id.slice(0, cut) : "";
  const name = cut > 0 ? t.id.slice(cut + (t.id.startsWith(" > ", cut) ? 3 : 2)) : t.id;
  const open = `    <testcase classname="${xmlAttr(suite ? `${t.gate}.${suite}` : t.gate)}" name="${xmlAttr(name)}" time="0.000"`;
  if (t.state === "known failure")
    return [`${open}>`, `      <skipped message="${xmlAttr(`known failure, declared in ${t.detail ?? "?"}`)}"/>`, "    </testcase>"];
  if (t.state === "not run")
    return [`${open}>`, `      <skipped message="${xmlAttr("not run now (skipped, todo or gone); failing at the baseline")}"/>`, "    </testcase>"];
  if (!failsFinally(t.state)) return [`${open}/>`];
  const what: Record<string, string> = {
    regressed: "regressed: passed at the baseline",
    "still failing": "still failing: failing before the run",
    "new, failing": "new, failing",
  };
  const message = `${what[t.state]}${t.detail ? ` (${t.detail})` : ""}${last?.preExistingAllowed && t.state === "still failing" ? '; baseline: "report", did not block' : ""}`;
  const body = [last?.output ?? "(output no longer available)", ...(last?.logFile ? ["", `Full output: ${last.logFile}`] : [])].join("\n");
  return [
    `${open}>`,
    `      <failure message="${xmlAttr(message)}" type="${t.state === "regressed" ? "regression" : t.state === "new, failing" ? "new" : "target"}">${xmlText(body)}</failure>`,
    "    </testcase>",
  ];
}

/**
 * The stories run in parallel, one `<testcase>` each: a failed story is a `<failure>` with why it failed, a
 * story that never finished (the thread stopped or waits) is `<skipped>`; files and usage are properties.
 */
function storySuite(thread: string, stories: StoryRun[]): string[] {
  const failures = stories.filter((s) => s.status === "failed").length;
  const skipped = stories.filter((s) => s.status === "pending" || s.status === "running").length;
  const lines = [
    `  <testsuite name="yolo stories" tests="${stories.length}" failures="${failures}" errors="0" skipped="${skipped}" time="0.000">`,
    "    <properties>",
    `      <property name="yolo.thread" value="${xmlAttr(thread)}"/>`,
    "    </properties>",
  ];
  for (const s of stories) {
    lines.push(`    <testcase classname="yolo.stories" name="${xmlAttr(`${s.id}: ${s.title ?? ""}`)}" time="0.000">`);
    lines.push(
      "      <properties>",
      `        <property name="yolo.story.status" value="${xmlAttr(s.status)}"/>`,
      `        <property name="yolo.story.branch" value="${xmlAttr(s.branch ?? "")}"/>`,
      `        <property name="yolo.story.filesChanged" value="${xmlAttr((s.filesChanged ?? []).join(" "))}"/>`,
      `        <property name="yolo.story.tokens" value="${s.usage?.totalTokens ?? 0}"/>`,
      `        <property name="yolo.story.calls" value="${s.usage?.calls ?? 0}"/>`,
      ...(s.conflicts?.length ? [`        <property name="yolo.story.conflicts" value="${xmlAttr(s.conflicts.join(" "))}"/>`] : []),
      "      </properties>",
    );
    if (s.status === "failed") lines.push(`      <failure message="${xmlAttr(`story ${s.id} failed`)}" type="story">${xmlText(s.summary ?? "")}</failure>`);
    else if (s.status === "pending" || s.status === "running")
      lines.push(`      <skipped message="${xmlAttr(`story ${s.id} did not finish: ${s.status} when the thread stopped`)}"/>`);
    lines.push("    </testcase>");
  }
  lines.push("  </testsuite>");
  return lines;
}

function testcase(g: ReportGate): string[] {
  const open = `    <testcase classname="yolo.gates" name="${xmlAttr(g.name)}" time="${secs(g.durationMs)}"`;
  const blocks = gateBlocks(g);
  if (g.passed && !blocks) return [`${open}/>`];
  const counts = g.passedCount !== null || g.failedCount !== null ? `: ${g.passedCount ?? "?"} passed, ${g.failedCount ?? "?"} failed` : "";
  const what = g.passed ? "passed but blocked by yolo" : g.timedOut ? "timed out" : `exit ${g.exitCode ?? "none (killed)"}`;
  const notes = judgementNotes(g, 10);
  // A red gate that did not block: optional, or failing only where the baseline already failed. An optional gate
  // judged by its findings (a lint) blocks on a new one, and then reads as any blocking gate.
  const prefix = blocks ? "" : !g.required ? "optional gate (did not block): " : "pre-existing failures only (did not block): ";
  // The exit code does not say why a green gate blocked, or that a red one did not: the message does.
  const why = (g.passed && blocks) || !blocks || g.gateChange?.length ? notes[0] : undefined;
  // A run the environment failed (the project not installed…) says so: a CI viewer must not read it as the code's.
  const cause = g.environment ? ` — the environment's failure: ${ENVIRONMENT_WORDS[g.environment.kind]}` : "";
  const message = `${prefix}\`${g.command}\` ${what}${counts}${why ? ` — ${why}` : ""}${cause}`;
  const body = [
    ...notes,
    ...(notes.length ? [""] : []),
    ...(g.failures.length ? [`Failing: ${g.failures.join("; ")}`, ""] : []),
    g.output ?? "(output no longer available)",
    ...(g.logFile ? ["", `Full output: ${g.logFile}`] : []),
  ].join("\n");
  return [
    `${open}>`,
    `      <failure message="${xmlAttr(message)}" type="${g.timedOut ? "timeout" : g.environment ? "environment" : "gate"}">${xmlText(body)}</failure>`,
    "    </testcase>",
  ];
}

// A testcase is a failure when the gate was red, or green but blocked by yolo (a regression, a refused gate change).
function isFailure(g: ReportGate): boolean {
  return !g.passed || (g.blocking ?? false);
}

function total(gates: ReportGate[]): number {
  return gates.reduce((ms, g) => ms + g.durationMs, 0);
}

function secs(ms: number): string {
  return (ms / 1000).toFixed(3);
}

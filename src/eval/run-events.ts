import { readFileSync } from "node:fs";
import type { GateResult } from "../events/schema.js";

/** What an eval reads from a task run's JSON Lines events (every leg appended to one file). */
export interface RunFacts {
  thread: string | null;
  /** The last leg's `run.completed`, or null when the last leg has not ended (killed: resume it). */
  completed: { status: string; exitCode: number; reason: string; usage: { promptTokens: number; completionTokens: number } } | null;
  /** Gate runs after the first check: the times a blocked gate sent the change back. */
  fixAttempts: number;
  /** Test or gate files the model wrote through the file tools, by path. */
  testWrites: string[];
  /** Gate results that named an unapproved change to what defines the gate. */
  refusedGateChanges: string[];
  /** Wall time of every leg, summed: each from its `run.started` to its last event (a killed leg to the last it wrote). */
  legsMs: number;
  /** Each gate's last result after the baseline, by gate name: what the judge may reuse (judge-reuse.ts). */
  lastGates: Map<string, GateResult>;
  /** Each leg's sandbox, as its `run.started` said (`unknown` when it said none). */
  sandboxes: string[];
}

const WRITE_TOOLS = new Set(["write_file", "edit_file"]);

/**
 * Reads a run's events file (`--json` output of every leg). Lines that are not JSON (a leg killed mid-line) are
 * skipped; `isGateFile` says which written paths define the gate (test files, runner configs).
 */
export function readRunFacts(file: string, isGateFile: (path: string) => boolean): RunFacts {
  const facts: RunFacts = {
    thread: null,
    completed: null,
    fixAttempts: 0,
    testWrites: [],
    refusedGateChanges: [],
    legsMs: 0,
    lastGates: new Map(),
    sandboxes: [],
  };
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return facts;
  }
  const leg = { from: Number.NaN, to: Number.NaN };
  const endLeg = () => {
    if (leg.to > leg.from) facts.legsMs += leg.to - leg.from;
  };
  for (const line of text.split("\n")) {
    const e = parse(line);
    if (!e) continue;
    const at = typeof e.ts === "string" ? Date.parse(e.ts) : Number.NaN;
    if (e.type === "run.started") {
      endLeg();
      leg.from = at;
      facts.thread = typeof e.thread === "string" ? e.thread : facts.thread;
      facts.completed = null;
      facts.sandboxes.push(sandboxOf(e.sandbox));
    }
    if (!Number.isNaN(at)) leg.to = at;
    if (e.type === "run.completed") facts.completed = e as unknown as RunFacts["completed"];
    else if (e.type === "tool.called" && WRITE_TOOLS.has(String(e.tool))) {
      const path = pathOf(e.args);
      if (path && isGateFile(path)) facts.testWrites.push(path);
    } else if (e.type === "gate.result") readGate(e.gate as Record<string, unknown> | undefined, facts);
  }
  endLeg();
  return facts;
}

function readGate(gate: Record<string, unknown> | undefined, facts: RunFacts): void {
  if (!gate || gate.baseline) return;
  if (typeof gate.name === "string") facts.lastGates.set(gate.name, gate as unknown as GateResult);
  if (typeof gate.attempt === "number") facts.fixAttempts = Math.max(facts.fixAttempts, gate.attempt - 1);
  const change = Array.isArray(gate.gateChange) ? (gate.gateChange as string[]) : [];
  if (change.length && !gate.gateChangeApproved) facts.refusedGateChanges.push(`${gate.name}: ${change.join("; ")}`);
}

function sandboxOf(sandbox: unknown): string {
  const kind = sandbox && typeof sandbox === "object" ? (sandbox as { kind?: unknown }).kind : undefined;
  return typeof kind === "string" ? kind : "unknown";
}

function parse(line: string): Record<string, unknown> | null {
  if (!line.trim()) return null;
  try {
    const v = JSON.parse(line) as unknown;
    return v && typeof v === "object" ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

// A file tool's `path` argument, normalised the way the tools read it (leading `./` dropped).
function pathOf(args: unknown): string | null {
  try {
    const parsed = JSON.parse(String(args)) as { path?: unknown };
    return typeof parsed.path === "string" ? parsed.path.replace(/^(\.\/)+/, "").replace(/^@project\//, "") : null;
  } catch {
    return null;
  }
}

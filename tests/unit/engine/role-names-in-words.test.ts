import { describe, expect, it } from "vitest";
import { parseAgentFile } from "../../../src/agents/frontmatter.js";
import { resolveConfig } from "../../../src/config/resolve.js";
import { coderNode } from "../../../src/engine/coder-node.js";
import { claimsPayload } from "../../../src/engine/nodes/failure-claims.js";
import { knownFor } from "../../../src/engine/nodes/known-rules.js";
import { finalOutcome } from "../../../src/engine/run/complete.js";
import { takeTurn } from "../../../src/engine/stories/shared-spend.js";
import { sayEnvironmentFailure } from "../../../src/gates/environment-failure.js";
import { nodeBrief } from "../../../src/prompt/brief.js";
import { roleOf, type RoleSource } from "../../../src/roles/registry.js";
import type { PipelineStateType } from "../../../src/state/pipeline.js";
import { STORED_CHANNELS } from "../../../src/state/stored-channels.js";
import { gateResult } from "../../helpers/gate-result.js";

// The words that name an agent take its node from the workflow or the state, never a built-in role's name: with the
// default pipeline they read as they always have (dev, tea), with a project's own roles they name those.

/** An agent added by a Markdown file alone, as the registry sees it. */
function fromMarkdown(id: string, capabilities: string): RoleSource {
  const parsed = parseAgentFile(`---\nname: ${id}\ndescription: An agent.\ntools: [read_file]\ncapabilities: [${capabilities}]\n---\nPersona.\n`);
  if (!parsed.ok) throw new Error(parsed.problems.join("; "));
  return { id, capabilities: parsed.value.frontmatter.capabilities };
}

/** A checkpoint's state with nothing written: every channel at its default (what an old checkpoint lacks reads so). */
const emptyState = (): PipelineStateType =>
  Object.fromEntries(Object.entries(STORED_CHANNELS).map(([key, channel]) => [key, channel.initial()])) as unknown as PipelineStateType;

const root = "/nonexistent/project";
const defaultConfig = resolveConfig({ root, fileConfig: {}, file: null, env: {} });
const ownWorkflow = (nodes: Record<string, unknown>) =>
  resolveConfig({ root, fileConfig: { workflow: { nodes, edges: [{ from: "start", to: Object.keys(nodes)[0] }] } } as never, file: null, env: {} });

// A judge's FAIL on green gates on a second block, written by the judging role's handoff at `node`, then the thread's outcome.
function judgedAt(node: string, agent?: RoleSource): string {
  const role = roleOf(agent?.id ?? node, agent === undefined, agent);
  const state = { ...emptyState(), lastGates: [gateResult({ passed: true })] };
  const gateVerdict = () => ({ gateBlocked: true, fixAttempts: 2 });
  const out = role.write({ verdict: "FAIL", findings: ["no docs"] }, { node, state, gates: state.lastGates, written: [], changed: null, root, gateVerdict });
  return finalOutcome({ ...state, ...out.update } as PipelineStateType).reason;
}

describe("the judge's verdict in a failed run's reason", () => {
  it("names the node that judged: tea in the default pipeline, qa when a Markdown file makes qa the judge", () => {
    expect(judgedAt("tea")).toBe("tea verdict FAIL after 1 fix attempt");
    expect(judgedAt("qa", fromMarkdown("qa", "judges-gates"))).toBe("qa verdict FAIL after 1 fix attempt");
  });

  it("a verdict from a checkpoint that does not say who wrote it reads as it did before: the catalog's judging role", () => {
    const old = { ...emptyState(), verdict: "FAIL", gateBlocked: true, fixAttempts: 3, lastGates: [gateResult({ passed: true })] } as PipelineStateType;
    delete (old as Partial<PipelineStateType>).verdictBy;
    expect(finalOutcome(old).reason).toBe("tea verdict FAIL after 2 fix attempts");
  });
});

describe("the stories' shared turn limit", () => {
  const stopped = (thread: string, node: string) => {
    takeTurn(thread, 1, node);
    try {
      takeTurn(thread, 1, node);
    } catch (error) {
      return (error as Error).message;
    }
    return "not stopped";
  };

  it("names the fanning-out node's runs and limit: dev's as before, a builder's in a project's workflow", () => {
    expect(stopped("words-dev", "dev")).toBe(
      "The stories' devs used dev's 1 turns between them without all handing off. The thread is saved: resume it with a higher maxTurns.",
    );
    expect(stopped("words-builder", "builder")).toMatch(/^The stories' builders used builder's 1 turns between them/);
  });
});

describe("an environment failure says who was not sent it", () => {
  const disk = { kind: "disk" as const, line: "ENOSPC: no space left on device", fix: "Free disk space." };
  const said = (coder: string | null) => sayEnvironmentFailure("test", disk, coder);

  it("the node that would fix the failures, from the workflow's roles", () => {
    expect(coderNode(defaultConfig)).toBe("dev");
    expect(said(coderNode(defaultConfig))).toContain("Nothing was sent to dev as a test failure;");
    // A builder from a Markdown file that fans out stories, beside a judge from another one.
    const agents = new Map([
      ["builder", fromMarkdown("builder", "fans-out-stories")],
      ["qa", fromMarkdown("qa", "judges-gates")],
    ]);
    const own = ownWorkflow({ pm: { kind: "agent" }, builder: { kind: "agent" }, qa: { kind: "agent" } });
    expect(said(coderNode(own, agents))).toContain("Nothing was sent to builder as a test failure;");
    // No fan-out: the first agent whose role writes code and does not judge (the built-in dev under another node id).
    const coder = ownWorkflow({ pm: { kind: "agent" }, qa: { kind: "agent", gates: true }, coder: { kind: "agent", agent: "dev" } });
    expect(coderNode(coder)).toBe("coder");
    // Nobody in the workflow writes code: the words name no one.
    expect(coderNode(ownWorkflow({ pm: { kind: "agent" }, qa: { kind: "agent", gates: true } }))).toBeNull();
    expect(said(null)).toContain("Nothing was sent to an agent as a test failure;");
  });
});

describe("a claim that failing tests are unrelated names the agent that made it", () => {
  const open = [{ id: "suite > net", gate: "test" }];

  it("the claim is kept with the node whose handoff made it, and the question and the accepted failure name it", () => {
    const state = emptyState();
    const gateVerdict = () => ({ gateBlocked: false, fixAttempts: 0 });
    const claimed = roleOf("dev", false).write(
      { summary: "done", files_changed: [], unrelated_failures: ["suite > net"] },
      { node: "coder", state, gates: null, written: [], changed: null, root, gateVerdict },
    );
    expect(claimed.update).toMatchObject({ failureClaims: ["suite > net"], failureClaimsBy: "coder" });

    const asked = claimsPayload("qa", open, "coder");
    expect(asked.prompt).toMatch(/^coder says a test that was failing before the run is unrelated/);
    expect(asked.prompt).toMatch(/it stays a target and coder gets the reason\.$/);
    expect(asked.artifact).toBe("Tests coder claims are unrelated to the task, failing now as at the baseline:\n- suite > net (gate test)\n");
    expect(claimsPayload("tea", open, "dev").prompt).toBe(
      "dev says a test that was failing before the run is unrelated to the task, and it still fails as at the baseline: suite > net (gate test). Approve to accept it as known failures for this thread (no longer blocking), or reject with a reason: it stays a target and dev gets the reason.",
    );

    const deps = { config: {} } as never;
    const ruled = (claimedBy?: string) => [{ id: "suite > net", gate: "test", accepted: true, by: "qa", reason: null, ...(claimedBy ? { claimedBy } : {}) }];
    expect(knownFor({ name: "test" }, deps, [], ruled("coder"))("suite > net")).toBe("a human's approval at qa (coder said it is not part of the task)");
    // A ruling from before the claimant was kept: the default pipeline's coder, as it read then.
    expect(knownFor({ name: "test" }, deps, [], ruled())("suite > net")).toBe("a human's approval at qa (dev said it is not part of the task)");
  });
});

describe("a fix attempt's brief names where each piece of earlier work came from", () => {
  const judged = (verdictBy?: string | null) => ({
    ...emptyState(),
    requirements: "Add numbers.",
    stories: [{ title: "Add", as_a: "user", i_want: "add", so_that: "sums", acceptance_criteria: ["adds"] }],
    gateBlocked: true,
    fixAttempts: 1,
    verdict: "FAIL" as const,
    ...(verdictBy === undefined ? {} : { verdictBy }),
  });

  it("the built-in roles whose handoffs wrote it, and the node that judged: the test architect in the default pipeline, qa in a project's", () => {
    const brief = nodeBrief("dev", judged("tea"), 3);
    expect(brief).toContain("## Requirements (from analyst)\nAdd numbers.");
    expect(brief).toContain("## Stories (from pm)\n- **Add**");
    expect(brief).toContain("\nTest architect's verdict: FAIL");
    expect(nodeBrief("tea", { ...judged("tea"), devSummary: "added" }, 3)).toContain("## The change (from dev)\nadded");
    expect(nodeBrief("dev", judged("qa"), 3)).toContain("\nqa's verdict: FAIL");
    // A checkpoint from before the verdict's author was kept reads as it did.
    expect(nodeBrief("dev", judged(), 3)).toContain("\nTest architect's verdict: FAIL");
  });
});

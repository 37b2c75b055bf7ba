import type { AgentContext, RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { askCall } from "../../../src/acp/call-ask.js";
import type { AcpSession } from "../../../src/acp/prompt-turn.js";

// An editor that records what it is asked and rejects each call with a reason.
function editorThatRejects(asked: RequestPermissionRequest[]): AgentContext {
  const request = async (_method: string, params: RequestPermissionRequest) => {
    asked.push(params);
    return { outcome: { outcome: "selected", optionId: "reject" }, _meta: { reason: "not now" } };
  };
  return { request, notify: async () => {} } as unknown as AgentContext;
}

function session(patch: Partial<AcpSession>): AcpSession {
  return {
    ...{ id: "s", cwd: "/p", threadId: "t", mode: "run", status: null, waiting: null, turn: new AbortController() },
    ...{ permission: "ask", client: null, calls: new Map(), review: null, sandboxed: null, mcpServers: null },
    ...patch,
  } as AcpSession;
}

/** Ask mode asks about a command only when it would run outside the sandbox's walls. */
describe("ask mode and run_command", () => {
  it("lets a sandboxed command run unasked; asks about one without a sandbox (or not known yet), and a rejection says the command and the reason", async () => {
    const asked: RequestPermissionRequest[] = [];
    const q = { sessionId: "s", tool: "run_command", input: { command: "rm -rf build" }, callId: "c1" };
    const client = editorThatRejects(asked);
    expect(await askCall(session({ client, sandboxed: true }), q)).toEqual({ allow: true });
    expect(asked).toEqual([]);
    expect(await askCall(session({ client, sandboxed: false }), q)).toEqual({
      allow: false,
      reason: "The user rejected this run_command `rm -rf build` in the editor: not now",
    });
    expect(asked[0].toolCall).toMatchObject({ title: "run_command rm -rf build", kind: "execute" });
    await askCall(session({ client, sandboxed: null }), q);
    expect(asked).toHaveLength(2);
    expect(await askCall(session({ client, sandboxed: false, permission: "auto" }), q)).toEqual({ allow: true });
    expect(asked).toHaveLength(2);
  });
});

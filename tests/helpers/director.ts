import { roleOf, type RecordedRequest, type Responder, type ScriptedReply } from "./mock-openai.js";

/** A reply for one agent turn: fixed, or computed from the request (to read tool results, say). */
export type Turn = ScriptedReply | ((req: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>);

/**
 * A responder that serves each agent its own queue of turns, found from the `You are the <role> agent`
 * line of the request. Requests from a role whose queue is empty get a 400 naming the role, so a test
 * that expected fewer turns fails loudly instead of hanging in retries.
 */
export function director(script: Record<string, Turn[]>): Responder & { served: string[] } {
  const queues = Object.fromEntries(Object.entries(script).map(([role, turns]) => [role, [...turns]]));
  const served: string[] = [];
  const responder = async (req: RecordedRequest) => {
    const role = roleOf(req) ?? "unknown";
    served.push(role);
    const turn = queues[role]?.shift();
    if (!turn) return { status: 400, content: `director: no scripted turn left for ${role} (request ${served.length})` };
    return typeof turn === "function" ? turn(req) : turn;
  };
  return Object.assign(responder, { served });
}

/** A turn that calls one tool. */
export function call(name: string, args: unknown, content = ""): ScriptedReply {
  return { content, toolCalls: [{ name, args }] };
}

/** A turn that hands off with these arguments. */
export function handoff(args: Record<string, unknown>, content = ""): ScriptedReply {
  return call("handoff", args, content);
}

export const analystDone = handoff({
  requirements: "# Add\nProvide `add(a, b)` in `src/add.js` returning the sum.",
  acceptance_criteria: ["add(2, 3) returns 5", "add(-1, 1) returns 0"],
});

export function pmDone(needsArchitecture: boolean): ScriptedReply {
  return handoff({
    stories: [
      {
        title: "Add numbers",
        as_a: "developer",
        i_want: "an add(a, b) function",
        so_that: "I can sum two numbers",
        acceptance_criteria: ["add(2, 3) returns 5"],
      },
    ],
    needs_architecture: needsArchitecture,
  });
}

export const architectDone = handoff({
  decisions: [{ title: "Module", decision: "ES module src/add.js exporting add", rationale: "matches the project's type: module" }],
});

export const GOOD_ADD = "export function add(a, b) {\n  return a + b;\n}\n";
export const BAD_ADD = "export function add(a, b) {\n  return a - b;\n}\n";

export function devWrites(content: string): Turn[] {
  return [call("write_file", { path: "src/add.js", content }), handoff({ summary: "wrote add", files_changed: ["src/add.js"] })];
}

export function teaSays(verdict: "PASS" | "CONCERNS" | "FAIL", findings: string[] = []): ScriptedReply {
  return handoff({ verdict, findings });
}

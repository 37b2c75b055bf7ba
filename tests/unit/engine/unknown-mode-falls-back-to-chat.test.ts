import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/resolve.js";
import { inertDeps } from "../../../src/engine/inspect.js";
import { CHAT_AGENT, configForProfile, readThreadProfile } from "../../../src/engine/modes.js";
import { agentContext } from "../../../src/engine/nodes/agent-context.js";
import type { Session } from "../../../src/engine/session.js";
import type { EventBody } from "../../../src/events/schema.js";
import { runState } from "../middleware/fixtures.js";

/** A session whose latest checkpoint holds these channel values. */
const sessionWith = (values: Record<string, unknown> | null) =>
  ({ checkpointer: { getTuple: async () => (values ? { checkpoint: { channel_values: values } } : undefined) } }) as unknown as Session;

describe("a thread's mode", () => {
  it("is read from the checkpoint: none is run (threads from before modes), unknown falls back to chat", async () => {
    expect(await readThreadProfile(sessionWith({ requirement: "x" }), "t")).toEqual({ mode: "run" });
    expect(await readThreadProfile(sessionWith({ mode: "run" }), "t")).toEqual({ mode: "run" });
    expect(await readThreadProfile(sessionWith({ mode: "agent", agentId: "dev" }), "t")).toEqual({ mode: "agent", agentId: "dev" });
    expect(await readThreadProfile(sessionWith({ mode: "chat" }), "t")).toEqual({ mode: "chat" });
    expect(await readThreadProfile(sessionWith({ mode: "turbo" }), "t")).toEqual({ mode: "chat" });
    expect(await readThreadProfile(sessionWith({ mode: "agent" }), "t")).toEqual({ mode: "chat" });
    expect(await readThreadProfile(sessionWith(null), "t")).toBeNull();
  });

  it("an agent run with an unknown mode in its state gets the chat profile, with a warning logged and emitted", () => {
    const base = resolveConfig({ root: "/nonexistent/project", fileConfig: {}, file: null, env: {} });
    const warned: string[] = [];
    const deps = {
      ...inertDeps(configForProfile(base, { mode: "chat" })),
      logger: { info() {}, error() {}, warn: (_: object, msg?: string) => void warned.push(msg ?? "") },
    };
    const events: EventBody[] = [];
    const { messages, tools } = agentContext(
      {
        node: "chat",
        agentId: "chat",
        role: "custom",
        flags: [],
        agent: { ...CHAT_AGENT, persona: "PERSONA" },
        modelName: "gpt-4o-mini",
        state: runState({ mode: "turbo" }),
        mode: "turbo",
        userInput: "hi",
      },
      deps,
      (e) => events.push(e),
    );
    expect(warned).toEqual(['unknown or missing mode "turbo"; falling back to chat']);
    expect(events).toEqual([{ type: "warning", message: 'chat: unknown or missing mode "turbo"; falling back to chat' }]);
    // The chat profile: no persona layer, read-only tools, the message fenced as user input.
    expect(messages.map((m) => String(m.content)).join("\n")).not.toContain("PERSONA");
    expect(tools.map((t) => t.name).sort()).toEqual(["list_files", "read_file", "search_files"]);
    expect(String(messages.at(-1)?.content)).toContain('<data source="user">');
  });
});

import { describe, expect, it } from "vitest";
import { createPlainRenderer } from "../../../src/ui/plain-renderer.js";
import type { YoloEvent } from "../../../src/events/schema.js";

// --verbose plain output names the sandbox a run got, and without one why and the fix (the warning says it anyway).
describe("plain output: the sandbox line", () => {
  it("shows kind, reason and fix from run.started under --verbose", async () => {
    const lines: string[] = [];
    const r = createPlainRenderer((s) => lines.push(s), { verbose: true });
    const started: YoloEvent = {
      v: 1,
      thread: "t1",
      ts: new Date(0).toISOString(),
      type: "run.started",
      requirement: "x",
      model: "m",
      resumed: false,
      nodes: ["dev"],
      logFile: "/l",
      sandbox: { kind: "none", reason: "AppArmor blocks unprivileged user namespaces", fix: "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0" },
    };
    r.onEvent(started);
    await r.close();
    expect(lines.join("")).toContain(
      "sandbox none: AppArmor blocks unprivileged user namespaces (fix: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0)",
    );
  });
});

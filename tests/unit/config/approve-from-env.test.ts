import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/resolve.js";

const root = "/tmp/proj";

/** YOLO_APPROVE adds agents whose output waits for a human (an editor's plan mode), never removing the config's. */
describe("YOLO_APPROVE", () => {
  it("adds its agents to the config's approve, each once, with their review nodes in the workflow", () => {
    const cfg = resolveConfig({ root, file: null, fileConfig: { approve: ["architect"] }, env: { YOLO_APPROVE: " pm, architect ," } });
    expect(cfg.approve).toEqual(["architect", "pm"]);
    expect(Object.keys(cfg.workflow.nodes)).toEqual(expect.arrayContaining(["approve_pm", "approve_architect"]));
    expect(cfg.workflow.edges).toContainEqual({ from: "pm", to: "approve_pm" });
  });

  it("unset or empty, leaves the config's approvals as they are", () => {
    for (const env of [{}, { YOLO_APPROVE: "" }]) {
      const cfg = resolveConfig({ root, file: null, fileConfig: {}, env });
      expect(cfg.approve).toEqual([]);
      expect(Object.keys(cfg.workflow.nodes).some((n) => n.startsWith("approve_"))).toBe(false);
    }
  });
});

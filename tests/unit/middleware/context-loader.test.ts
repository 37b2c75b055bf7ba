import { describe, expect, it } from "vitest";
import { contextLoader } from "../../../src/middleware/context-loader.js";
import { deepFreeze, mwState } from "./fixtures.js";

describe("contextLoader", () => {
  it("loads the project summary for the root", () => {
    const state = deepFreeze(mwState({ root: "/p" }));
    const out = contextLoader(state, (root) => `summary of ${root}`);
    expect(out.projectSummary).toBe("summary of /p");
    expect(state.projectSummary).toBeUndefined();
  });

  it("gives null when the project has nothing to summarize or cannot be read", () => {
    expect(contextLoader(mwState(), () => null).projectSummary).toBeNull();
    expect(
      contextLoader(mwState(), () => {
        throw new Error("EACCES");
      }).projectSummary,
    ).toBeNull();
  });

  it("keeps a summary already loaded", () => {
    const state = mwState({ projectSummary: "kept" });
    expect(contextLoader(state, () => "other")).toBe(state);
  });

  it("reads a real directory that does not exist as null", () => {
    expect(contextLoader(mwState({ root: "/nonexistent/yolo-project" })).projectSummary).toBeNull();
  });
});

describe("the folder yolo was started in", () => {
  it("is named before the summary when it is a subfolder of the project", () => {
    const out = contextLoader(mwState({ root: "/p", startDir: "/p/js/src" }), () => "tree");
    expect(out.projectSummary).toMatch(/^The user started yolo in the folder js\/src\/ of the project/);
    expect(out.projectSummary).toMatch(/\n\ntree$/);
  });

  it("is not mentioned at the root", () => {
    expect(contextLoader(mwState({ root: "/p", startDir: "/p" }), () => "tree").projectSummary).toBe("tree");
    expect(contextLoader(mwState({ root: "/p" }), () => null).projectSummary).toBeNull();
  });
});

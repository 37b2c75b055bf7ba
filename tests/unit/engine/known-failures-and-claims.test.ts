import { describe, expect, it } from "vitest";
import { openClaims } from "../../../src/engine/nodes/failure-claims.js";
import { knownFor } from "../../../src/engine/nodes/known-rules.js";
import { threadKnownFailureFlags } from "../../../src/store/known-failure-flags.js";
import { gateResult } from "../../helpers/gate-result.js";
import { tempDir } from "../../helpers/per-test.js";

const deps = (knownFailures?: string[]) => ({ config: { knownFailures } }) as never;

describe("known failures are declared by people only", () => {
  it("the config's top level, the gate's own list, --known-failure and a human's acceptance, each named where it was declared", () => {
    const known = knownFor(
      { name: "test", knownFailures: ["flaky > *"] },
      deps(["legacy*"]),
      ["net"],
      [
        { id: "suite > accepted", gate: "test", accepted: true, by: "tea", reason: null },
        { id: "suite > refused", gate: "test", accepted: false, by: "tea", reason: "part of the task" },
        { id: "suite > other gate", gate: "lint", accepted: true, by: "tea", reason: null },
      ],
    );
    expect(known("flaky > times out")).toBe("yolo.config.ts (gate test, knownFailures)");
    expect(known("legacy parser keeps dates")).toBe("yolo.config.ts (knownFailures)");
    expect(known("test/net.test.js > net")).toBe("--known-failure");
    expect(known("suite > accepted")).toBe("a human's approval at tea (dev said it is not part of the task)");
    expect(known("suite > refused")).toBeNull();
    expect(known("suite > other gate")).toBeNull();
  });

  it("--known-failure belongs to the thread: a later leg without the flag keeps what an earlier leg was given", async ({ onTestFinished }) => {
    const dir = tempDir(onTestFinished);
    expect(await threadKnownFailureFlags(dir, "t1", ["net", " net "])).toEqual(["net"]);
    expect(await threadKnownFailureFlags(dir, "t1")).toEqual(["net"]);
    expect(await threadKnownFailureFlags(dir, "t1", ["dns"])).toEqual(["net", "dns"]);
    expect(await threadKnownFailureFlags(dir, "t2")).toEqual([]);
  });
});

describe("dev's claim that a failing test is unrelated", () => {
  const blocked = gateResult({ blocking: true, preExisting: ["test/a.test.js > adds", "test/n.test.js > net", "gone"], missing: ["gone"] });

  it("asks about a claimed test only while it fails as at the baseline in a gate where it blocks, and only once", () => {
    expect(openClaims(["net", "gone", "not failing"], [], [blocked])).toEqual([{ id: "test/n.test.js > net", gate: "test" }]);
    expect(openClaims(["test/n.test.js > net"], [{ id: "test/n.test.js > net", gate: "test", accepted: false, by: "tea", reason: "no" }], [blocked])).toEqual(
      [],
    );
    expect(openClaims(["net"], [], [{ ...blocked, blocking: false }])).toEqual([]);
    expect(openClaims(["net"], [], [{ ...blocked, preExistingAllowed: true }])).toEqual([]);
  });

  it("names tests, never patterns: a model's wildcard claims nothing", () => {
    expect(openClaims(["*", "test/*", ".*"], [], [blocked])).toEqual([]);
  });
});

import * as ts from "typescript";
import { describe, expect, it } from "vitest";
import { canarySites } from "../../../src/eval/canary-sites.js";

const flip = (text: string) => canarySites(ts, "t.test.ts", text).map((s) => text.slice(0, s.start) + s.replacement + text.slice(s.end));

describe("canary sites: expected values of assertions, found with TypeScript's parser", () => {
  it("flips the expected literal of node:assert comparisons and of expect() matchers, never the actual side", () => {
    expect(flip("assert.equal(add(2, 3), 5);")).toEqual(["assert.equal(add(2, 3), 6);"]);
    expect(flip('assert.deepStrictEqual(f("a"), "b");')).toEqual(['assert.deepStrictEqual(f("a"), "b!");']);
    expect(flip("expect(isEven(4)).toBe(true);")).toEqual(["expect(isEven(4)).toBe(false);"]);
    expect(flip("expect(x).resolves.toEqual(false);")).toEqual(["expect(x).resolves.toEqual(true);"]);
  });

  it("leaves negated matchers, non-literal expectations, other calls and look-alike text alone", () => {
    expect(flip("expect(x).not.toBe(1);")).toEqual([]);
    expect(flip("assert.equal(a, b);")).toEqual([]);
    expect(flip("other.equal(a, 1); assert.ok(1);")).toEqual([]);
    expect(flip('const s = "assert.equal(a, 1)";')).toEqual([]);
  });
});

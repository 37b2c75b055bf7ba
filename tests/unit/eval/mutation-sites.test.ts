import * as ts from "typescript";
import { describe, expect, it } from "vitest";
import { applySite, mutationSites } from "../../../src/eval/mutation-sites.js";

const SOURCE = `// a < b in a comment is not code
export function f(xs: number[], limit: number): number {
  let n = 0;
  const label = "a" + limit;
  for (let i = 0; i < xs.length; i++) {
    if (xs[i] > limit) n = n * 2;
    log(label, n);
  }
  return n === 0 ? pick(xs, limit) : n - 1;
}
`;

describe("mutation sites are found with TypeScript's parser", () => {
  const sites = mutationSites(ts, "src/f.ts", SOURCE);
  const mutants = (kind: string) => sites.filter((s) => s.kind === kind).map((s) => applySite(SOURCE, s));

  it("flips comparisons and arithmetic in code, never in comments or string concatenation", () => {
    expect(mutants("flip-comparison").some((m) => m.includes("i >= xs.length"))).toBe(true);
    expect(mutants("flip-comparison").some((m) => m.includes("xs[i] <= limit"))).toBe(true);
    expect(mutants("flip-comparison").some((m) => m.includes("n !== 0 ?"))).toBe(true);
    expect(mutants("flip-arithmetic").some((m) => m.includes("n = n / 2"))).toBe(true);
    expect(mutants("flip-arithmetic").some((m) => m.includes("n + 1;"))).toBe(true);
    expect(mutants("flip-arithmetic").some((m) => m.includes('"a" - limit'))).toBe(false);
    for (const m of sites.map((s) => applySite(SOURCE, s))) expect(m.split("\n")[0]).toBe("// a < b in a comment is not code");
  });

  it("shifts boundaries and integer literals by one, negates conditions, drops statements, swaps arguments", () => {
    expect(mutants("off-by-one").some((m) => m.includes("i <= xs.length"))).toBe(true);
    expect(mutants("off-by-one").some((m) => m.includes("let n = 1;"))).toBe(true);
    expect(mutants("negate-condition").some((m) => m.includes("if (!(xs[i] > limit))"))).toBe(true);
    expect(mutants("negate-condition").some((m) => m.includes("!(n === 0) ?"))).toBe(true);
    expect(mutants("drop-statement").some((m) => !m.includes("log(label, n)"))).toBe(true);
    expect(mutants("swap-arguments").some((m) => m.includes("pick(limit, xs)"))).toBe(true);
  });

  it("every mutant still parses", () => {
    for (const m of sites.map((s) => applySite(SOURCE, s))) {
      const file = ts.createSourceFile("m.ts", m, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS) as unknown as { parseDiagnostics: unknown[] };
      expect(file.parseDiagnostics).toEqual([]);
    }
  });
});

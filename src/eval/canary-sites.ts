import type * as TS from "typescript";
import type { Ts } from "./mutation-sites.js";

/** One assertion of a test file whose expected value can be flipped: the literal's span and its contradiction. */
export interface CanarySite {
  file: string;
  start: number;
  end: number;
  replacement: string;
  /** Where and what, for the task file's reviewer (never shown to the model). */
  description: string;
}

/** node:assert's value comparisons: `assert.equal(actual, expected)`; the expected value is the second argument. */
const ASSERT_CALLS = new Set(["equal", "strictEqual", "deepEqual", "deepStrictEqual"]);
/** Jest / vitest matchers: `expect(actual).toBe(expected)`; the expected value is the matcher's argument. */
const MATCHERS = new Set(["toBe", "toEqual", "toStrictEqual"]);

/**
 * Every assertion of one JS/TS test file whose expected value is a literal (number, string, boolean), found with
 * TypeScript's parser (never a regular expression), each with a replacement that contradicts it: a number plus one,
 * a string with a character added, a boolean negated. The actual side is left alone, so the test still calls the
 * code the same way and now demands a different answer from it.
 */
export function canarySites(ts: Ts, file: string, text: string): CanarySite[] {
  const kind = /\.(tsx|jsx)$/.test(file) ? ts.ScriptKind.TSX : /\.[cm]?ts$/.test(file) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const sites: CanarySite[] = [];
  const visit = (node: TS.Node): void => {
    const expected = ts.isCallExpression(node) ? expectedArgument(ts, node) : null;
    const flipped = expected ? contradiction(ts, expected) : null;
    if (expected && flipped !== null) {
      const start = expected.getStart(source);
      const line = source.getLineAndCharacterOfPosition(start).line + 1;
      const call = node.getText(source).replace(/\s+/g, " ").slice(0, 80);
      sites.push({
        file,
        start,
        end: expected.getEnd(),
        replacement: flipped,
        description: `${file}:${line}: ${call} expects ${expected.getText(source)} → ${flipped}`,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return sites;
}

// The expected-value argument of an assertion call, or null when the call is no assertion this knows.
function expectedArgument(ts: Ts, call: TS.CallExpression): TS.Expression | null {
  const callee = call.expression;
  if (!ts.isPropertyAccessExpression(callee)) return null;
  const name = callee.name.text;
  if (ASSERT_CALLS.has(name) && call.arguments.length >= 2 && ts.isIdentifier(callee.expression) && callee.expression.text === "assert") {
    return call.arguments[1];
  }
  if (MATCHERS.has(name) && call.arguments.length === 1 && isExpectCall(ts, callee.expression)) return call.arguments[0];
  return null;
}

// `expect(x)` or `expect(x).not`-free chains such as `expect(x).resolves`: the matcher's receiver starts at expect().
function isExpectCall(ts: Ts, node: TS.Expression): boolean {
  if (ts.isPropertyAccessExpression(node)) return node.name.text !== "not" && isExpectCall(ts, node.expression);
  return ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "expect";
}

// The literal's contradiction as source text, or null when the expression is no literal this flips.
function contradiction(ts: Ts, e: TS.Expression): string | null {
  if (ts.isNumericLiteral(e) && /^\d+$/.test(e.text)) return String(Number(e.text) + 1);
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return JSON.stringify(`${e.text}!`);
  if (e.kind === ts.SyntaxKind.TrueKeyword) return "false";
  if (e.kind === ts.SyntaxKind.FalseKeyword) return "true";
  return null;
}

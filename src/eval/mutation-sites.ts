import type * as TS from "typescript";

/** The kinds of single bug a mutant carries (SWE-smith's operators). */
export type MutationKind = "flip-comparison" | "flip-arithmetic" | "off-by-one" | "negate-condition" | "drop-statement" | "swap-arguments";

/** One place a bug can be injected: the text span to replace and its replacement. */
export interface MutationSite {
  file: string;
  start: number;
  end: number;
  replacement: string;
  kind: MutationKind;
  /** Where and what, for the task file's reviewer (never shown to the model). */
  description: string;
}

/** The TypeScript compiler API (loaded at run time: only mutation needs it). */
export type Ts = typeof TS;

/** Comparison flips (`<` → `>=`…): the condition's opposite. */
const COMPARISON: Record<string, string> = { "<": ">=", "<=": ">", ">": "<=", ">=": "<", "===": "!==", "!==": "===", "==": "!=", "!=": "==" };
const ARITHMETIC: Record<string, string> = { "+": "-", "-": "+", "*": "/", "/": "*", "%": "*" };
/** Boundary shifts: the classic off-by-one. */
const BOUNDARY: Record<string, string> = { "<": "<=", "<=": "<", ">": ">=", ">=": ">" };

/**
 * Every mutation site of one JavaScript or TypeScript source, found with TypeScript's own parser (never a regular
 * expression): operators in binary expressions, integer literals, conditions of if / while / ?:, expression
 * statements in a block, and the first two arguments of calls.
 */
export function mutationSites(ts: Ts, file: string, text: string): MutationSite[] {
  const kind = /\.(tsx|jsx)$/.test(file) ? ts.ScriptKind.TSX : /\.[cm]?ts$/.test(file) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const sites: MutationSite[] = [];
  const line = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const add = (node: TS.Node | { getStart(): number; getEnd(): number }, replacement: string, k: MutationKind, what: string) => {
    const start = node.getStart(source);
    sites.push({ file, start, end: node.getEnd(), replacement, kind: k, description: `${file}:${line(start)}: ${what}` });
  };
  const visit = (node: TS.Node): void => {
    if (ts.isBinaryExpression(node)) binarySites(ts, node, source, add);
    else if (ts.isNumericLiteral(node) && /^\d+$/.test(node.text) && !ts.isPropertyAssignment(node.parent) && !ts.isEnumMember(node.parent)) {
      add(node, String(Number(node.text) + 1), "off-by-one", `${node.text} → ${Number(node.text) + 1}`);
    } else if ((ts.isIfStatement(node) || ts.isWhileStatement(node)) && node.expression) {
      add(node.expression, `!(${node.expression.getText(source)})`, "negate-condition", `condition negated`);
    } else if (ts.isConditionalExpression(node)) {
      add(node.condition, `!(${node.condition.getText(source)})`, "negate-condition", `?: condition negated`);
    } else if (ts.isExpressionStatement(node) && ts.isBlock(node.parent)) {
      add(node, ";", "drop-statement", `statement dropped: ${node.getText(source).slice(0, 60)}`);
    } else if (ts.isCallExpression(node) && node.arguments.length >= 2 && !node.arguments.some(ts.isSpreadElement)) {
      const [a, b] = node.arguments;
      const swapped = { getStart: () => a.getStart(source), getEnd: () => b.getEnd() };
      const between = text.slice(a.getEnd(), b.getStart(source));
      add(
        swapped,
        `${b.getText(source)}${between}${a.getText(source)}`,
        "swap-arguments",
        `arguments swapped in ${node.expression.getText(source).slice(0, 40)}(…)`,
      );
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return sites;
}

// A binary expression's operator: flipped, shifted by one, or its arithmetic opposite.
function binarySites(ts: Ts, node: TS.BinaryExpression, source: TS.SourceFile, add: (n: TS.Node, r: string, k: MutationKind, w: string) => void): void {
  const op = node.operatorToken.getText(source);
  if (COMPARISON[op]) add(node.operatorToken, COMPARISON[op], "flip-comparison", `${op} → ${COMPARISON[op]}`);
  if (BOUNDARY[op]) add(node.operatorToken, BOUNDARY[op], "off-by-one", `${op} → ${BOUNDARY[op]}`);
  if (ARITHMETIC[op] && !isStringy(ts, node)) add(node.operatorToken, ARITHMETIC[op], "flip-arithmetic", `${op} → ${ARITHMETIC[op]}`);
}

// `"a" + b` concatenates: flipping it to `-` makes NaN, a bug no honest requirement describes.
function isStringy(ts: Ts, node: TS.BinaryExpression): boolean {
  const s = (n: TS.Expression) => ts.isStringLiteral(n) || ts.isTemplateExpression(n) || ts.isNoSubstitutionTemplateLiteral(n);
  return s(node.left) || s(node.right);
}

/** `text` with one site's span replaced. */
export function applySite(text: string, site: Pick<MutationSite, "start" | "end" | "replacement">): string {
  return text.slice(0, site.start) + site.replacement + text.slice(site.end);
}

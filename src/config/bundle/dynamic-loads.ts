import { createRequire } from "node:module";
import type * as TS from "typescript";

// A config's bundle holds every module its imports name. A module loaded by a name computed at run time (a variable,
// `new URL(…)`), or through a require function of its own, would be found by Node in the work tree when the bundle
// runs: exactly what a model can write. Such a load is refused when the bundle is made, by file and line.

/** A load yolo cannot resolve before running the code: where it is and what it is. */
export interface DynamicLoad {
  line: number;
  what: string;
}

// Calls that load code by a path Node resolves at run time, whatever their argument.
const LOADERS = new Set(["createRequire", "createRequireFromPath", "dlopen"]);
// A quick look before the parser is loaded: text without any of these words loads nothing dynamically.
const QUICK = /\b(?:require|import|createRequire|createRequireFromPath|dlopen)\b/;

/** The dynamic loads in one module's source (TypeScript or JavaScript), in order. */
export function dynamicLoads(text: string, file: string): DynamicLoad[] {
  if (!QUICK.test(text)) return [];
  const ts = typescript();
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, /\.[cm]?tsx?$/.test(file) ? ts.ScriptKind.TSX : ts.ScriptKind.JSX);
  const found: DynamicLoad[] = [];
  const visit = (node: TS.Node): void => {
    const what = ts.isCallExpression(node) ? describeCall(ts, node) : null;
    if (what) found.push({ line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, what });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

// What a call loads dynamically, in words; null when it loads nothing or a literal name (which the bundle holds).
function describeCall(ts: typeof TS, call: TS.CallExpression): string | null {
  const callee = call.expression;
  const literal = call.arguments.length === 1 && ts.isStringLiteralLike(call.arguments[0]);
  if (callee.kind === ts.SyntaxKind.ImportKeyword) return literal ? null : "import() of a computed specifier";
  const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : null;
  if (name === null) return null;
  if (LOADERS.has(name)) return `${name}()`;
  if (name === "require" && (ts.isIdentifier(callee) || isModuleRequire(ts, callee))) return literal ? null : "require() of a computed specifier";
  return null;
}

// `module.require(…)`: the CommonJS module's own require.
function isModuleRequire(ts: typeof TS, callee: TS.Expression): boolean {
  return ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === "module";
}

let ts: typeof TS | undefined;
// TypeScript's parser is large: loaded only when a module's text has a word worth parsing for.
function typescript(): typeof TS {
  ts ??= createRequire(import.meta.url)("typescript") as typeof TS;
  return ts;
}

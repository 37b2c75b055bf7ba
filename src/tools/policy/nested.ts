/**
 * What a command runs besides itself, as found by the analyses in this folder: another argv (a wrapper's or
 * `find -exec`'s), a shell string (`sh -c`, `eval`, `watch`), interpreter code to scan, or a refusal by a
 * built-in rule. `inherit`: the argv reads the outer command's input (a wrapper's does, `xargs`'s and
 * `find -exec`'s do not). `denyOnly` marks what is checked against deny rules but not allow-lists (code an allowed
 * interpreter runs, for example).
 */
export type Nested =
  | { kind: "argv"; argv: string[]; flags?: number[]; denyOnly?: boolean; inherit?: boolean }
  | { kind: "shell"; script: string; denyOnly?: boolean }
  | { kind: "code"; code: string }
  | { kind: "refuse"; rule: string; why: string };

/** A refusal by a built-in rule, named in the tool error. */
export function refuse(rule: string, why: string): Nested {
  return { kind: "refuse", rule, why };
}

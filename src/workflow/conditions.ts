/** Flags every workflow can branch on, computed from the state yolo keeps. */
export const BUILT_IN_FLAGS = ["needs_architecture", "gate_blocked", "fix_attempts_remain"] as const;

export interface ConditionTerm {
  flag: string;
  negated: boolean;
}

/** Parses `flag`, `!flag`, `a && !b`; returns null when the text is not in that form. */
export function parseCondition(text: string): ConditionTerm[] | null {
  const terms = text.split("&&").map((t) => t.trim());
  const parsed: ConditionTerm[] = [];
  for (const term of terms) {
    const m = /^(!?)\s*([a-z][a-z0-9_]*)$/.exec(term);
    if (!m) return null;
    parsed.push({ flag: m[2], negated: m[1] === "!" });
  }
  return parsed;
}

/** Evaluates a parsed condition against flag values (an unset flag is false). */
export function holds(terms: ConditionTerm[], flags: Record<string, boolean>): boolean {
  return terms.every((t) => (flags[t.flag] === true) !== t.negated);
}

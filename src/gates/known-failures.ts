/** A pattern a person gave for tests broken for reasons outside the task, and where they gave it. */
export interface KnownFailureRule {
  pattern: string;
  declaredIn: string;
}

/**
 * A test's own name: the last ` > ` segment (vitest, jest, node's TAP), what follows the last `::` (pytest), or the
 * last word of a `package TestName` id (Go, cargo); the id itself when it has no such parts.
 */
export function ownName(id: string): string {
  const clean = id.replace(/ #\d+$/, "");
  if (clean.includes(" > ")) return clean.slice(clean.lastIndexOf(" > ") + 3);
  if (clean.includes("::")) return clean.slice(clean.lastIndexOf("::") + 2);
  const words = /^\S+ (\S+)$/.exec(clean);
  return words ? words[1] : clean;
}

// `*` matches any run of characters (test names contain spaces and slashes alike); everything else is literal.
function patternRegex(pattern: string): RegExp {
  const body = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`);
}

/**
 * Where a test was declared a known failure: the first rule whose pattern matches the test's full id or its own
 * name (ownName), with `*` as a wildcard; null when no rule does.
 */
export function knownFailureMatcher(rules: readonly KnownFailureRule[]): (id: string) => string | null {
  const compiled = rules.map((r) => ({ re: patternRegex(r.pattern.trim()), declaredIn: r.declaredIn }));
  if (!compiled.length) return () => null;
  return (id) => {
    const own = ownName(id);
    return compiled.find((r) => r.re.test(id) || r.re.test(own))?.declaredIn ?? null;
  };
}

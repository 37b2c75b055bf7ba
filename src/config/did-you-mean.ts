import type { z } from "zod";

/** The keys an object schema accepts at `path` inside `schema` (through optional, default, array and record wrappers). */
export function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let node: unknown = schema;
  for (const segment of [...path, null]) {
    node = unwrap(node);
    const def = defOf(node);
    if (!def) return [];
    if (segment === null) return def.type === "object" && def.shape ? Object.keys(def.shape) : [];
    if (def.type === "object" && def.shape) node = def.shape[String(segment)];
    else if (def.type === "array") node = def.element;
    else if (def.type === "record") node = def.valueType;
    else return [];
  }
  return [];
}

/** The known key a mistyped one most likely meant: same letters ignoring case and `-`/`_`, or a few edits away. */
export function nearestKey(key: string, known: readonly string[]): string | null {
  const flat = (s: string) => s.toLowerCase().replace(/[-_\s]/g, "");
  const same = known.find((k) => flat(k) === flat(key));
  if (same) return same;
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const d = editDistance(flat(key), flat(candidate));
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  // Far-off guesses are worse than the list of known keys.
  return best !== null && bestDistance <= Math.max(1, Math.floor(Math.min(key.length, best.length) / 3)) ? best : null;
}

type Def = { type: string; shape?: Record<string, unknown>; element?: unknown; valueType?: unknown; innerType?: unknown; in?: unknown; getter?: () => unknown };

function defOf(node: unknown): Def | null {
  return ((node as { _zod?: { def?: Def } } | undefined)?._zod?.def as Def | undefined) ?? null;
}

// Optional, nullable, default… wrap the schema that says which keys exist.
function unwrap(node: unknown): unknown {
  for (let i = 0; i < 20; i++) {
    const def = defOf(node);
    if (!def) return node;
    if (def.innerType !== undefined && ["optional", "nullable", "default", "prefault", "readonly", "catch", "nonoptional"].includes(def.type))
      node = def.innerType;
    else if (def.type === "pipe") node = def.in;
    else if (def.type === "lazy" && def.getter) node = def.getter();
    else return node;
  }
  return node;
}

// Edit distance counting a swap of two neighbours as one edit (optimal string alignment); config keys are short.
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Milliseconds in a duration such as `90s`, `45m`, `1h30m`, `2h` or `500ms`; a bare number is seconds.
 * Null when the text is not a positive duration.
 */
export function parseDuration(text: string): number | null {
  const value = text.trim().toLowerCase();
  if (/^\d+(\.\d+)?$/.test(value)) return positive(Number(value) * 1000);
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d))+$/.test(value)) return null;
  let total = 0;
  for (const [, amount, , unit] of value.matchAll(/(\d+(\.\d+)?)(ms|s|m|h|d)/g)) total += Number(amount) * UNITS[unit];
  return positive(total);
}

function positive(ms: number): number | null {
  return Number.isFinite(ms) && ms > 0 ? Math.round(ms) : null;
}

/** A duration for messages: `1h 5m`, `2m 30s`, `45s`, `800ms`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = Math.floor(ms / 1000);
  const parts = [
    [Math.floor(s / 3600), "h"],
    [Math.floor((s % 3600) / 60), "m"],
    [s % 60, "s"],
  ].filter(([n]) => (n as number) > 0);
  return parts
    .slice(0, 2)
    .map(([n, u]) => `${n}${u}`)
    .join(" ");
}

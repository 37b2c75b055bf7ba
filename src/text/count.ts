/**
 * 12345 → "12,345", as `toLocaleString("en-US")` writes it, without its cost: the first locale call of a process
 * loads ICU data, more than the rest of `yolo show`'s rendering (docs/performance.md). Fractions still go through it.
 */
export function groupThousands(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString("en-US");
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return n < 0 ? `-${digits}` : digits;
}

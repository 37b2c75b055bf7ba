/** A word for a POSIX shell: as is when it is safe, otherwise in single quotes (printed commands can be pasted). */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

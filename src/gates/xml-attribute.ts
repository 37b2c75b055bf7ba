/**
 * An attribute's decoded value in the text of an XML start tag (`name="x"` or `name='x'`), or null when absent. The
 * name must stand alone (`name` never matches inside `classname`). Report files are the runner's output: untrusted,
 * so a character reference past Unicode's range decodes to nothing rather than throwing.
 */
export function xmlAttribute(attrs: string, name: string): string | null {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attrs);
  return m ? decodeXml(m[1] ?? m[2] ?? "") : null;
}

/** Text with XML's five named entities and numeric character references decoded. */
export function decodeXml(text: string): string {
  return text.replace(/&(lt|gt|quot|apos|amp|#\d+|#x[0-9a-f]+);/gi, (_, e: string) => {
    if (e[0] === "#") {
      const code = e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
      return code <= 0x10ffff ? String.fromCodePoint(code) : "";
    }
    return { lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" }[e.toLowerCase()] ?? "";
  });
}

/** Text inside a line of Markdown: one line, no HTML tags taken literally (model-written text in reports). */
export function inlineMarkdown(text: string): string {
  return text
    .replace(/\s*\n\s*/g, " ")
    .replace(/</g, "&lt;")
    .trim();
}

/** One block of an MCP tool result, as the SDK parses it (kept loose: a hostile server may send anything). */
type Block = { type?: unknown; text?: unknown; mimeType?: unknown; data?: unknown; uri?: unknown; name?: unknown; resource?: unknown };

/**
 * An MCP tool result as text for the model: text blocks as they are; images, audio and binary resources as a short
 * description (the model cannot use base64); a text resource with its text. Structured content stands in when
 * there are no blocks.
 */
export function resultText(result: { content?: unknown; structuredContent?: unknown }): string {
  const blocks = Array.isArray(result.content) ? (result.content as Block[]) : [];
  const parts = blocks.map(blockText);
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return parts.join("\n");
}

function blockText(block: Block): string {
  if (!block || typeof block !== "object") return "[a content block yolo cannot read]";
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? block.text : "";
    case "image":
    case "audio":
      return `[${block.type}: ${str(block.mimeType) ?? "unknown type"}, ${base64Bytes(block.data)} bytes, not shown]`;
    case "resource_link":
      return `[resource link: ${str(block.uri) ?? "?"}${str(block.name) ? ` (${str(block.name)})` : ""}]`;
    case "resource": {
      const r = (block.resource ?? {}) as Block;
      if (typeof r.text === "string") return `[resource ${str(r.uri) ?? "?"}]\n${r.text}`;
      return `[resource ${str(r.uri) ?? "?"}: ${str(r.mimeType) ?? "binary"}, ${base64Bytes(r.data ?? (r as { blob?: unknown }).blob)} bytes, not shown]`;
    }
    default:
      return `[a "${String(block.type).slice(0, 40)}" block yolo cannot show]`;
  }
}

function str(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value.slice(0, 200) : null;
}

function base64Bytes(data: unknown): number {
  return typeof data === "string" ? Math.floor((data.replace(/=+$/, "").length * 3) / 4) : 0;
}

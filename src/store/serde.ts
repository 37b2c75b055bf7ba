import { JsonPlusSerializer, type SerializerProtocol } from "@langchain/langgraph-checkpoint";
import { scrubText, scrubValue } from "../secrets/scrub.js";

/** LangGraph's serializer behind yolo's scrubbing: what both checkpointers (SQLite, PostgreSQL) write with. */
export function checkpointSerde(): SerializerProtocol {
  return scrubbingSerde(new JsonPlusSerializer());
}

/**
 * Checkpoints never hold a secret: JSON payloads are scrubbed as text after serialising (cheap when no secret
 * occurs). When text replacement would break the JSON, every string of the parsed value is scrubbed instead.
 */
export function scrubbingSerde(inner: SerializerProtocol): SerializerProtocol {
  return {
    async dumpsTyped(data: unknown): Promise<[string, Uint8Array]> {
      const [type, bytes] = await inner.dumpsTyped(data);
      if (type !== "json") return [type, bytes];
      const text = Buffer.from(bytes).toString("utf8");
      const scrubbed = scrubText(text);
      if (scrubbed === text) return [type, bytes];
      try {
        JSON.parse(scrubbed);
        return [type, new TextEncoder().encode(scrubbed)];
      } catch {
        // A raw secret matched across an escape sequence: scrub string by string instead.
        return [type, new TextEncoder().encode(JSON.stringify(scrubValue(JSON.parse(text))))];
      }
    },
    loadsTyped: (type: string, data: Uint8Array | string) => inner.loadsTyped(type, data),
  };
}

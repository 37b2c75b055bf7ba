import type { EventBody } from "../../events/schema.js";
import { TokenScrubbers } from "../../secrets/stream-scrub.js";

type StreamBody = Extract<EventBody, { type: "token" | "thought" }>;

/**
 * Wraps a run's emit so each agent's (and story's) tokens are scrubbed as one stream, and its thoughts as another:
 * a secret the model streams in two tokens is censored like a whole one. Text that may begin a secret waits for
 * the next token, or goes out before the next other event of its agent (events without an agent end every stream),
 * so order is kept.
 */
export function scrubbedTokens(emit: (body: EventBody) => void): (body: EventBody) => void {
  const streams = new TokenScrubbers<StreamBody>();
  return (body) => {
    if (body.type === "token" || body.type === "thought") {
      // A thought's end is the answer's start: what the thought stream still holds goes out first.
      if (body.type === "token") for (const held of streams.drain(streamKey({ ...body, type: "thought" }))) emit(held);
      const shown = streams.push(streamKey(body), body);
      if (shown) emit(shown);
      return;
    }
    const node = "node" in body && typeof body.node === "string" ? body.node : undefined;
    const drain = (type: StreamBody["type"]) => streams.drain(node === undefined ? undefined : streamKey({ type, node, story: body.story }));
    for (const held of [...drain("thought"), ...(node === undefined ? [] : drain("token"))]) emit(held);
    emit(body);
  };
}

function streamKey(e: { type: StreamBody["type"]; node: string; story?: string }): string {
  return [e.type, e.node, e.story ?? ""].join("\u0000");
}

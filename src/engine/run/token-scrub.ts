import type { EventBody } from "../../events/schema.js";
import { TokenScrubbers } from "../../secrets/stream-scrub.js";

type TokenBody = Extract<EventBody, { type: "token" }>;

/**
 * Wraps a run's emit so each agent's (and story's) tokens are scrubbed as one stream: a secret the model streams
 * in two tokens is censored like a whole one. Text that may begin a secret waits for the next token, or goes out
 * before the next other event of its agent (events without an agent end every stream), so order is kept.
 */
export function scrubbedTokens(emit: (body: EventBody) => void): (body: EventBody) => void {
  const streams = new TokenScrubbers<TokenBody>();
  return (body) => {
    if (body.type === "token") {
      const shown = streams.push(streamKey(body), body);
      if (shown) emit(shown);
      return;
    }
    const node = "node" in body && typeof body.node === "string" ? body.node : undefined;
    for (const held of streams.drain(node === undefined ? undefined : streamKey({ node, story: body.story }))) emit(held);
    emit(body);
  };
}

function streamKey(e: { node: string; story?: string }): string {
  return e.story === undefined ? e.node : `${e.node}\u0000${e.story}`;
}

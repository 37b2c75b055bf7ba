import type { IncomingMessage } from "node:http";
import type { ReviewResponse } from "../engine/review.js";

/** The largest reply form read: an answer is a few paragraphs; anything bigger is refused unread. */
const MAX_BODY = 64 * 1024;

export type ReplyForm = { csrf: string; reply: { answer: string } | { review: ReviewResponse } } | { error: string };

/** Reads a posted reply form (application/x-www-form-urlencoded) into what `yolo resume` would be given. */
export async function readReply(req: IncomingMessage): Promise<ReplyForm> {
  if (!(req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) return { error: "A reply is a form post." };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return { error: `The reply is over ${MAX_BODY / 1024} KiB; nothing was saved.` };
    chunks.push(chunk as Buffer);
  }
  const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
  const csrf = form.get("csrf") ?? "";
  const action = form.get("action");
  if (action === "answer") {
    const answer = (form.get("answer") ?? "").trim();
    return answer ? { csrf, reply: { answer } } : { error: "The answer is empty; nothing was saved." };
  }
  if (action === "approve") return { csrf, reply: { review: { action: "approve" } } };
  if (action === "reject") {
    const reason = (form.get("reason") ?? "").trim();
    return reason ? { csrf, reply: { review: { action: "reject", reason } } } : { error: "A rejection needs the reason the agent gets; nothing was saved." };
  }
  return { error: "Unknown action: answer, approve or reject." };
}

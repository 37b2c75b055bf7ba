import { html, type Safe } from "../html.js";

/**
 * The reply to a waiting thread, posted back to this server (POST only, with the page's CSRF token): an answer to a
 * question, or approve / reject (with the reason the agent gets) for a review. Same effect as
 * `yolo resume --answer/--approve/--reject`, without running the agents here: a later `yolo resume` goes on.
 */
export function replyForm(id: string, review: boolean, csrf: string): Safe {
  const action = `/threads/${encodeURIComponent(id)}/reply`;
  const hidden = html`<input type="hidden" name="csrf" value="${csrf}">`;
  if (!review) {
    return html`<form class="reply" method="post" action="${action}">${hidden}<input type="hidden" name="action" value="answer">
<label for="answer">Your answer</label><textarea id="answer" name="answer" required></textarea>
<button type="submit" id="send-answer">Answer</button></form>`;
  }
  return html`<form class="reply" method="post" action="${action}">${hidden}<input type="hidden" name="action" value="approve">
<button type="submit" id="approve">Approve</button></form>
<form class="reply" method="post" action="${action}">${hidden}<input type="hidden" name="action" value="reject">
<label for="reason">Reject, with the reason the agent gets</label><textarea id="reason" name="reason" required></textarea>
<button type="submit" id="reject">Reject</button></form>`;
}

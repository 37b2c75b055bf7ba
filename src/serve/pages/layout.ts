import { html, type Safe } from "../html.js";

/**
 * A whole page: the one stylesheet and the one script from /static/, nothing inline. `live` names what the page
 * shows ("list", "thread:<id>", "evals"), which its script subscribes to for updates.
 */
export function page(title: string, main: Safe, live: string | null = null): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · yolo</title>
<link rel="stylesheet" href="/static/serve.css">
<script src="/static/serve.js" defer></script>
</head>
<body data-live="${live ?? ""}">
<header><strong>yolo</strong><a href="/">Threads</a><a href="/evals">Evals</a></header>
<main>
${main}
</main>
</body>
</html>
`.text;
}

/** The status cell's class: one colour per status, from a fixed list (never from data). */
export function statusClass(status: string): string {
  const known = ["passed", "failed", "error", "waiting", "running", "interrupted", "limit"];
  return known.includes(status) ? `status s-${status}` : "status";
}

/** "2026-11-29 06:24:09" from an ISO time. */
export function when(iso: string): string {
  return iso.replace("T", " ").slice(0, 19);
}

/** Tokens with thousands separators; cost with four decimals and its currency. */
export function tokens(n: number): string {
  return n.toLocaleString("en-US");
}

export function money(amount: number, currency: string): string {
  return `${amount.toFixed(4)} ${currency}`;
}

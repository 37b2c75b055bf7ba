/**
 * The web view's only script and style, served from /static/ (the CSP allows 'self' and nothing inline). Kept as
 * strings in the bundle: no front-end build, no files to find beside dist/.
 */

/**
 * Live updates: the page subscribes to /events (server-sent events) for what it shows (`data-live` on <body>);
 * on "changed" it fetches itself again and swaps its <main>, unless the reader is typing in a form. A change that
 * comes while a fetch is under way, or while the reader types, is not dropped: the page is marked stale and fetched
 * again when the fetch ends or the reader leaves the field (else a run's last change could be missed for good).
 */
export const LIVE_JS = `"use strict";
(function () {
  var body = document.body;
  var topic = body.getAttribute("data-live");
  if (!topic || !window.EventSource) return;
  var busy = false;
  var stale = false;
  function typing() {
    var a = document.activeElement;
    return a && (a.tagName === "TEXTAREA" || a.tagName === "INPUT") && a.value !== "";
  }
  function refresh() {
    if (busy || typing()) {
      stale = true;
      return;
    }
    busy = true;
    stale = false;
    var wait = 0;
    fetch(location.href, { credentials: "same-origin" })
      .then(function (r) { return r.text(); })
      .then(function (text) {
        var next = new DOMParser().parseFromString(text, "text/html").querySelector("main");
        var main = document.querySelector("main");
        if (next && main) main.replaceWith(next);
        body.setAttribute("data-updated", String(Date.now()));
      })
      .catch(function () { stale = true; wait = 1000; })
      .finally(function () {
        busy = false;
        if (stale) setTimeout(refresh, wait);
      });
  }
  document.addEventListener("focusout", function () {
    if (stale) setTimeout(refresh, 0);
  });
  var source = new EventSource("/events?topic=" + encodeURIComponent(topic));
  source.addEventListener("changed", refresh);
})();
`;

export const CSS = `:root { color-scheme: light dark; --muted: #777; --line: #8884; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 0; }
header { display: flex; gap: 1.5em; align-items: baseline; padding: .6em 1.2em; border-bottom: 1px solid var(--line); }
header a { text-decoration: none; }
main { padding: 1em 1.2em; }
h1 { font-size: 1.3em; margin: .2em 0 .6em; }
h2 { font-size: 1.05em; margin: 1.4em 0 .4em; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .3em .6em; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; }
.req { max-width: 40em; overflow-wrap: anywhere; }
.muted { color: var(--muted); }
.status { font-weight: 600; white-space: nowrap; }
.s-passed { color: #2a8a3a; } .s-failed, .s-error { color: #c0392b; } .s-waiting { color: #b7791f; }
.s-running { color: #2b6cb0; } .s-interrupted, .s-limit { color: #8a5a00; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #8881; padding: .6em; border-radius: 4px; }
form.filters { display: flex; gap: .6em; margin-bottom: 1em; flex-wrap: wrap; }
form.reply { border: 1px solid #b7791f; padding: .8em; border-radius: 4px; max-width: 50em; }
form.reply textarea { width: 100%; min-height: 4em; }
.timeline li { margin: .2em 0; }
.plot { max-width: 46em; }
.plot .bar { fill: #2b6cb0; } .plot .ci { stroke: #222; stroke-width: 2; } .plot text { font-size: 12px; fill: currentColor; }
.plot .axis { stroke: var(--muted); }
.notice { padding: .6em; border-left: 3px solid #b7791f; background: #b7791f22; }
`;

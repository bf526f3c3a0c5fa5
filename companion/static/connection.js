/* The connection to the companion, on every page (the pill in the top bar): live, reconnecting, or
   server gone. A page with an event stream opens it through openStream (which reopens a stream the
   browser gave up on); any other page asks /api/ping now and then, and sooner while it is lost. */
"use strict";
const GONE_MS = 15000, PING_MS = 10000, RETRY_MS = 2000;
let connLost = null, connGone = null, connStreamed = false;

function connShow(state, words) {
  const box = document.getElementById("connection");
  if (!box) return;
  box.dataset.state = state;
  box.textContent = words;
  document.body.classList.toggle("server-gone", state === "gone");
}

function connLive() {
  connLost = null;
  clearTimeout(connGone);
  connShow("live", "Live");
}

function connFailed() {  // reconnecting at first; after GONE_MS without an answer, the server is gone
  if (connLost === null) {
    connLost = Date.now();
    clearTimeout(connGone);
    connGone = setTimeout(() => { if (connLost !== null) connShow("gone", "Server gone: is the companion still running?"); }, GONE_MS);
  }
  if (Date.now() - connLost < GONE_MS) connShow("reconnecting", "Reconnecting…");
}

/* An event stream of states: onState(state) for each; onGone(why) when the server says this stream is
   over for good (a ``gone`` event: {error, sentence}); whenClosed() is asked why a stream was refused
   (true: the page handles it, no retry). Returns a function that closes it for good. */
function openStream(url, onState, whenClosed, onGone) {
  connStreamed = true;
  let source = null, retry = 1000, stopped = false, timer = null;
  const open = () => {
    source = new EventSource(url);
    source.addEventListener("open", () => { retry = 1000; connLive(); });
    source.addEventListener("state", e => { connLive(); onState(JSON.parse(e.data)); });
    source.addEventListener("gone", e => { stopped = true; source.close(); connLive(); if (onGone) onGone(JSON.parse(e.data)); });
    source.addEventListener("error", async () => {
      connFailed();
      if (source.readyState !== EventSource.CLOSED || stopped) return;  // the browser tries again by itself
      if (whenClosed && await whenClosed()) { stopped = true; return; }
      timer = setTimeout(open, retry);  // refused or broken: open a new one, less and less often
      retry = Math.min(retry * 2, 15000);
    });
  };
  open();
  return () => { stopped = true; clearTimeout(timer); if (source) source.close(); };
}

/* Kept for pages that open their own EventSource. */
function watchConnection(events) {
  connStreamed = true;
  events.addEventListener("open", connLive);
  events.addEventListener("state", connLive);
  events.addEventListener("error", connFailed);
}

async function connPing() {
  if (connStreamed) return;
  try {
    const r = await fetch("/api/ping", {cache: "no-store", credentials: "same-origin"});
    if (r.ok) connLive(); else connFailed();
  } catch (e) {
    connFailed();
  }
  setTimeout(connPing, connLost === null ? PING_MS : RETRY_MS);
}

window.addEventListener("online", () => { if (!connStreamed) connPing(); });
document.addEventListener("DOMContentLoaded", () => {
  connShow("reconnecting", "Connecting…");
  setTimeout(connPing, 0);  // after the page's own scripts: a page with a stream has opened it by then
});

// Spaghetti Code in the browser: routing between the pages, the language switch, start-up.
"use strict";

// ------------------------------------------------------------------ routing

function route() {
  applyStaticWords();
  const m = location.pathname.match(/^\/g\/([A-Za-z0-9_-]+)$/);
  if (m) tablePage(m[1]);
  else if (location.pathname === "/puzzle") puzzlePage(new URLSearchParams(location.search).get("n"));
  else { if (live) { live.closed = true; if (live.ws) live.ws.close(); live = null; } homePage(); }
}

document.getElementById("lang").addEventListener("change", (ev) => {
  lang = ev.target.value;
  localStorage.setItem("spaghetti.lang", lang);
  applyStaticWords();
  if (live && live.msg && !live.closed) {
    send(live, { type: "lang", lang });
    if (live.ws && live.ws.readyState === WebSocket.OPEN) setConn(w("live"), true);
  }
  else if (!document.getElementById("replay-board")) route();  // (the puzzle page too)
  else {
    const r = replaying;
    const again = r.id ? api("GET", `/api/games/${r.id}/replay?lang=${lang}`) : api("POST", `/api/replay?lang=${lang}`, r.text);
    again.then((data) => replayPage(data, r.id, r.back, r.text, r.at())).catch((e) => toast(e.message));
  }
});
window.addEventListener("popstate", route);

fetch("/api/meta").then((r) => r.json()).then((m) => { META = m; route(); });

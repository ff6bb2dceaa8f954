// The page as an installed app: registers the service worker (sw.js), hands it the files this page
// loaded so the next opening works offline, and says while the server cannot be reached that
// a photo needs it.

import { $ } from "./dom.js";

function loadedFiles() {
  const own = performance.getEntriesByType("resource").map((e) => new URL(e.name))
    .filter((url) => url.origin === location.origin && url.pathname.startsWith("/static/"));
  return ["/", ...new Set(own.map((url) => url.pathname))];
}

// navigator.onLine says only that there is a network, not that this server is on it (a phone away
// from the laptop's Wi-Fi): ask the server too. Offline, the service worker answers 503 for it.
async function showOnline() {
  let reached = navigator.onLine;
  if (reached) reached = await fetch("/api/health", { cache: "no-store" }).then((r) => r.ok, () => false);
  $("offline-note").hidden = reached;
}

/** Register the service worker (where the browser has one) and keep the offline note current. */
export function startInstall() {
  window.addEventListener("online", showOnline);
  window.addEventListener("offline", showOnline);
  showOnline();
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" })
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => registration.active.postMessage({ cache: loadedFiles() }))
    .catch(() => {}); // no offline copy (a private window, say): the page works as before online
}

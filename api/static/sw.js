// The service worker (served at /sw.js so its scope is the whole page): the page's files are kept in a
// cache and answered from it at once, then refreshed from the server, so the page opens offline and
// the Board keeps the game; anything sent to /api/ goes to the server, and when it cannot be reached
// the answer says so as the page's other errors do: JSON {"detail": "..."}.

const CACHE = "cribcount-page-v1";
// The rest of the page's files (its modules, stylesheet) are added by install.js once it has loaded
// them, so a new module needs no change here.
const SHELL = ["/", "/manifest.webmanifest", "/favicon.ico", "/static/icons/icon-192.png",
  "/static/icons/icon-512.png"];

const OFFLINE = {
  photo: "Offline: reading a photo needs the cribcount server, and it cannot be reached now. " +
    "The Board keeps working; type the count there.",
  other: "Offline: counting needs the cribcount server, and it cannot be reached now. " +
    "The Board keeps working.",
};
// The routes a photo goes to (/api/referee/table takes the cards already read: "counting" is right).
const PHOTO_ROUTES = ["/api/count", "/api/discard", "/api/referee"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  const old = caches.keys()
    .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))));
  event.waitUntil(old.then(() => self.clients.claim()));
});

/** The page's own files: the page, its static files, the manifest and favicon (never /api/ or /docs). */
function isPageFile(url) {
  return url.origin === self.location.origin &&
    (url.pathname === "/" || url.pathname.startsWith("/static/") || SHELL.includes(url.pathname));
}

async function fromCacheThenRefresh(event) {
  const cache = await caches.open(CACHE);
  const key = new URL(event.request.url).pathname === "/" ? "/" : event.request;
  const cached = await cache.match(key, { ignoreSearch: key === "/" });
  const fresh = fetch(event.request).then((response) => {
    if (response.ok) cache.put(key, response.clone());
    return response;
  });
  if (cached) {
    event.waitUntil(fresh.catch(() => null)); // offline: the cached copy stands
    return cached;
  }
  return fresh;
}

function offlineAnswer(url) {
  const detail = PHOTO_ROUTES.includes(url.pathname) ? OFFLINE.photo : OFFLINE.other;
  return new Response(JSON.stringify({ detail }),
    { status: 503, headers: { "Content-Type": "application/json" } });
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method === "GET" && isPageFile(url)) {
    event.respondWith(fromCacheThenRefresh(event));
  } else if (url.origin === self.location.origin && url.pathname.startsWith("/api/")) {
    event.respondWith(fetch(event.request).catch(() => offlineAnswer(url)));
  }
});

// install.js sends the page's files once they are loaded: keep them for the next, offline, opening.
self.addEventListener("message", (event) => {
  const urls = event.data && event.data.cache;
  if (!Array.isArray(urls)) return;
  const own = urls.map((u) => new URL(u, self.location.origin)).filter(isPageFile).map((u) => u.pathname);
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(own)));
});

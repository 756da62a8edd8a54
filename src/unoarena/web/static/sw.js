// The service worker that lets the page install as an app and open without a network.
// It caches the page's static files only: the page itself and /static/. The game's state
// (/api, /ws, /healthz) always goes to the server and is never stored here. Network first, so
// an updated server's files are used as soon as it is reachable; the cache answers only when
// the network fails.
const CACHE = "unoarena-static-v1";
const CORE = [
  "/",
  "/static/style.css",
  "/static/learn.css",
  "/static/js/app.js",
  "/static/manifest.webmanifest",
  "/static/icons/icon-192.png",
  "/static/icons/icon.svg",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(CORE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

/** Whether a request is for one of the page's static files (never the game's state). */
function isStatic(request) {
  if (request.method !== "GET") return false;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return false;
  if (url.pathname.startsWith("/static/")) return true;
  return request.mode === "navigate"; // the page itself (every address is the same page)
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (!isStatic(request)) return; // /api, /ws, /healthz: straight to the server
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          const key = request.mode === "navigate" ? "/" : request;
          caches.open(CACHE).then((c) => c.put(key, copy));
        }
        return response;
      })
      .catch(() =>
        caches.match(request.mode === "navigate" ? "/" : request).then((hit) => hit || Response.error()),
      ),
  );
});

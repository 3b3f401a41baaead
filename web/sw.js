// WordSQD's service worker: the offline page, nothing else. Every word is judged by the server,
// so the game cannot be played offline; a page load without a network shows offline.html instead
// of the browser's error. Nothing else is cached here (the page's files are revalidated by ETag).
const CACHE = "wordsqd-offline-1";
const OFFLINE = "/offline.html";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.add(new Request(OFFLINE, { cache: "reload" }))));
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  if (event.request.mode !== "navigate") return; // the browser fetches everything else itself
  event.respondWith(fetch(event.request).catch(() => caches.match(OFFLINE)));
});

// WordSQD's service worker: the offline page and a reminder's notification, nothing else. Every
// word is judged by the server, so the game cannot be played offline; a page load without a
// network shows offline.html instead of the browser's error, with its script. Nothing else is
// cached here (the page's files are revalidated by ETag).
const CACHE = "wordsqd-offline-2";
const OFFLINE = "/offline.html";
const OFFLINE_FILES = [OFFLINE, "/offline.js"];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(OFFLINE_FILES.map((file) => new Request(file, { cache: "reload" })))),
  );
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
  if (event.request.mode === "navigate") {
    event.respondWith(fetch(event.request).catch(() => caches.match(OFFLINE)));
  } else if (OFFLINE_FILES.includes(new URL(event.request.url).pathname)) {
    event.respondWith(fetch(event.request).catch(() => caches.match(event.request))); // the offline page's script
  }
  // the browser fetches everything else itself
});

// A reminder (SPEC §4a: opt-in Web Push): one notification a date (its tag), which opens the game.
self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = {}; // a message that is not JSON still reminds
  }
  const day = typeof message.date === "string" ? message.date : "";
  event.waitUntil(self.registration.showNotification("Today's WordSQD is waiting", {
    body: "Three letters, one word, ten rounds: your Daily is not played yet.",
    tag: `wordsqd-reminder-${day}`,
    icon: "/icon.svg",
    data: { url: "/#home" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(self.clients.openWindow((event.notification.data && event.notification.data.url) || "/"));
});

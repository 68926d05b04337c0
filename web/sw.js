// The game's service worker: it keeps every file of this build (web/build.sh writes
// their names, each with a hash of its content), so that a second visit downloads
// nothing but the page and the game plays with no network at all.
//   - the page itself: from the network when there is one (a new build's page names
//     new files), else the kept copy;
//   - the build's files: the kept copy (their names change with their content);
//   - anything else (the online socket, /player, /games, ...): the network, as is.
const VERSION = '__VERSION__';
const FILES = __FILES__;
const CACHE = 'hexchess-' + VERSION;
const PAGE = new URL('./', self.location).href;
const KEPT = new Set(FILES.map((f) => new URL(f, self.location).href));

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

// An older build's copies go once this one is in charge.
self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(
        keys.filter((k) => k.startsWith('hexchess-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate' || url.href.split(/[?#]/)[0] === PAGE) {
    event.respondWith(pageFromNetworkOrKept(request));
  } else if (KEPT.has(url.href.split('?')[0])) {
    event.respondWith(
      caches.match(request, { ignoreSearch: true }).then((kept) => kept || fetch(request)));
  }
});

async function pageFromNetworkOrKept(request) {
  try {
    const answer = await fetch(request);
    if (answer.ok) {
      const copy = answer.clone();
      caches.open(CACHE).then((cache) => cache.put(PAGE, copy));
    }
    return answer;
  } catch (offline) {
    const kept = await caches.match(PAGE);
    if (kept) return kept;
    throw offline;
  }
}

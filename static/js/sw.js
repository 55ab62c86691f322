/* The service worker of the site, served at /sw.js (scope "/"). It keeps two caches:
   - the static files (scripts, styles, icons), and
   - the pages the offline entry needs that a user opened (GET navigations that answered 200 without a
     redirect and that the server marks "X-Offline-Keep: 1": a score sheet, the referee's tables, a
     player's page, the seating; config/pwa.py),
   both network first: online, everything comes from the server as before and the copy is refreshed;
   offline, the last copy answers, so a referee's tables and score sheets open without a network (the
   sheet editor restores the entry kept on the phone, see sheet.js). Never kept: anything but GET
   (saves, sign-ins), the admin, the API, sign-in pages, other sites, the organisers' pages.
   The kept pages belong to one person: every answer of the site names the session's owner
   ("X-Session-Owner"), and the first answer naming another owner (after any sign-out, an expired
   session, another person's sign-in) empties the page cache before anything else is kept; any sign-in
   or sign-out posted through the worker empties it at once. Nobody opens another person's pages on a
   shared phone.
   The page it answers offline for a page never kept speaks the reader's language: the language of the
   last page the site sent (its Content-Language), else the browser's, from OFFLINE_TEXTS. */
"use strict";

const STATIC = "riichi-static-v1";
const PAGES = "riichi-pages-v2";
const OWNER = "riichi-owner-v1"; /* one entry: the owner of the pages kept */
const OWNER_KEY = "/__owner__";
const NEVER = ["/admin/", "/api/", "/accounts/", "/sw.js", "/healthz"];
/* Sign-ins and sign-outs: the site's, the admin's, a player's PIN, a player's sign-out. */
const ACCOUNT = [/^\/accounts\/log(in|out)\/$/, /^\/admin\/log(in|out)\/$/, /^\/t\/[^/]+\/me\/(logout\/)?$/];
/* A player's one-time sign-in link (a GET). */
const LINK_SIGN_IN = /^\/t\/[^/]+\/in\/[^/]+\/$/;

/* The offline page's words in each of the site's languages. The server (config/pwa.py) replaces this
   line with a table drawn from its catalogues when it serves the worker; read as a plain file, English. */
const OFFLINE_TEXTS = { en: { title: "Offline", text: "No network, and this page was not opened on this device before." } };

/* The language of the last page the site sent (its Content-Language header), while the worker runs. */
let pageLanguage = "";

/* The language of OFFLINE_TEXTS for the reader: the last page's, else the browser's first one the site
   speaks (ja-JP is ja; zh, zh-CN and zh-TW are zh-hans), else English. */
function offlineLanguage() {
  const navigatorLanguages = (self.navigator && (self.navigator.languages || [self.navigator.language])) || [];
  for (const code of [pageLanguage, ...navigatorLanguages]) {
    const lower = String(code || "").toLowerCase();
    if (!lower) continue;
    if (OFFLINE_TEXTS[lower]) return lower;
    if (lower.split("-")[0] === "zh" && OFFLINE_TEXTS["zh-hans"]) return "zh-hans";
    if (OFFLINE_TEXTS[lower.split("-")[0]]) return lower.split("-")[0];
  }
  return "en";
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/* The page answered offline for a page never kept on this device. */
function offlinePage() {
  const language = offlineLanguage();
  const words = OFFLINE_TEXTS[language] || OFFLINE_TEXTS.en;
  return (
    `<!doctype html><html lang="${escapeHtml(language)}"><meta charset="utf-8">` +
    `<title>${escapeHtml(words.title)}</title><p>${escapeHtml(words.text)}</p></html>`
  );
}

/* Bumped each time the pages are forgotten: a copy fetched before that is not kept after it. */
let generation = 0;

function forgetPages() {
  generation += 1;
  return caches.delete(PAGES);
}

/* The owner of the pages kept, as the cache remembers it (the worker may be stopped between fetches). */
let knownOwner = null;

async function keptOwner() {
  if (knownOwner === null) {
    const kept = await (await caches.open(OWNER)).match(OWNER_KEY);
    knownOwner = kept ? await kept.text() : "";
  }
  return knownOwner;
}

/* An answer of the site names the session's owner: another one than the kept pages' empties the cache. */
async function sawOwner(response) {
  const owner = response && response.headers.get("X-Session-Owner");
  if (!owner || owner === (await keptOwner())) return;
  knownOwner = owner;
  await forgetPages();
  await (await caches.open(OWNER)).put(OWNER_KEY, new Response(owner));
}

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(names.filter((n) => n !== STATIC && n !== PAGES && n !== OWNER).map((n) => caches.delete(n))),
      )
      .then(() => self.clients.claim()),
  );
});

function kind(url) {
  if (url.origin !== self.location.origin) return null;
  if (url.pathname.startsWith("/static/")) return STATIC;
  if (NEVER.some((prefix) => url.pathname.startsWith(prefix))) return null;
  return PAGES;
}

async function keep(cacheName, request, response, since) {
  if (!response || !response.ok || response.redirected || response.type !== "basic") return;
  if (cacheName === PAGES) {
    await sawOwner(response);
    if (response.headers.get("X-Offline-Keep") !== "1") return; /* not a page the offline entry needs */
    if (response.headers.get("X-Session-Owner") !== (await keptOwner())) return;
  }
  const cache = await caches.open(cacheName);
  if (cacheName === PAGES && since !== generation) return; /* signed out meanwhile */
  await cache.put(request, response);
}

async function networkFirst(event, cacheName) {
  const since = generation;
  try {
    const response = await fetch(event.request);
    if (cacheName === PAGES && response.headers.get("Content-Language")) {
      pageLanguage = response.headers.get("Content-Language");
    }
    if (cacheName === PAGES) await sawOwner(response);
    event.waitUntil(keep(cacheName, event.request, response.clone(), since));
    return response;
  } catch (error) {
    const copy = await caches.match(event.request, { cacheName, ignoreVary: true });
    if (copy) return copy;
    if (cacheName === PAGES) {
      return new Response(offlinePage(), { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
    }
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  const sameSite = url.origin === self.location.origin;
  if (request.method !== "GET") {
    if (request.method === "POST" && sameSite && ACCOUNT.some((pattern) => pattern.test(url.pathname))) {
      event.waitUntil(forgetPages()); /* another user may sign in next */
    }
    return; /* the network, untouched */
  }
  if (sameSite && LINK_SIGN_IN.test(url.pathname)) event.waitUntil(forgetPages());
  const cacheName = kind(url);
  if (cacheName === STATIC) event.respondWith(networkFirst(event, STATIC));
  else if (cacheName === PAGES && request.mode === "navigate") event.respondWith(networkFirst(event, PAGES));
});

/* The page that registered the worker asks it to keep that page and its files (they loaded before the
   worker controlled the page), to refresh a page after a save, or to forget every page (signing out). */
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "keep" && Array.isArray(data.urls)) {
    event.waitUntil(
      Promise.all(
        data.urls.slice(0, 50).map(async (address) => {
          const url = new URL(address, self.location.origin);
          const cacheName = kind(url);
          if (!cacheName) return;
          const since = generation;
          try {
            const response = await fetch(url.href, { credentials: "same-origin" });
            await keep(cacheName, url.href, response, since);
          } catch (error) {
            /* offline: kept at the next visit */
          }
        }),
      ),
    );
  } else if (data.type === "forget-pages") {
    event.waitUntil(forgetPages());
  }
});

// Hideout's service worker: shows the notifications the server pushes (games/notify/webpush.py),
// even when no Hideout page is open, and opens the match when one is clicked. Served at /sw.js so
// that its scope is the whole site. It handles no requests: pages load as they always do.
"use strict";

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});

// The server's message is JSON: {title, body, url, tag, icon, lang}.
self.addEventListener("push", function (event) {
  var data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (e) {
    data = {};
  }
  var options = {
    body: data.body || "",
    data: { url: data.url || "/" },
    icon: data.icon || undefined,
    lang: data.lang || undefined,
  };
  if (data.tag) {
    options.tag = data.tag;
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(data.title || "Hideout", options));
});

// A click opens the match: in a tab of the site already showing it if there is one, else a new one.
// Only addresses of this site are opened.
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (url.origin !== self.location.origin) url = new URL("/", self.location.origin);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
      for (var i = 0; i < windows.length; i++) {
        if (windows[i].url === url.href && "focus" in windows[i]) return windows[i].focus();
      }
      return self.clients.openWindow(url.href);
    })
  );
});

// The profile's switch for browser notifications on this device (games/web/push_views.py): it
// registers the service worker (/sw.js), subscribes this browser at its push service with the
// site's VAPID public key (a browser already subscribed gets the same subscription back), and gives
// the server the subscription; turned off, it unsubscribes and tells the server to forget it. The words shown come from the section's data attributes (translated).
(function () {
  "use strict";
  var box = document.getElementById("webpush");
  if (!box) return;
  var button = box.querySelector("[data-push-toggle]");
  var status = box.querySelector("[data-push-status]");
  var csrf = document.querySelector("input[name=csrfmiddlewaretoken]");
  var registration = null;
  var subscription = null; // this browser's, which it keeps after a log-out
  var on = false; // whether the server sends the signed-in player's notifications to it

  function say(text) { status.textContent = text; }

  // A refusal worded for the player (the server's, or ours); any other error gets the general words.
  function Refusal(text) { this.text = text; }

  function show(isOn) {
    on = isOn;
    button.textContent = on ? box.dataset.turnOff : box.dataset.turnOn;
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.hidden = false;
    button.disabled = false;
    say(on ? box.dataset.on : box.dataset.off);
  }

  // The VAPID public key (base64url) as the bytes pushManager.subscribe takes.
  function keyBytes(text) {
    var padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function tell(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf ? csrf.value : "" },
      body: JSON.stringify(body),
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (answer) {
        if (!response.ok) throw new Refusal(answer.error || box.dataset.failed);
        return answer;
      });
    });
  }

  function turnOn() {
    var options = { userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.key) };
    return Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") throw new Refusal(box.dataset.denied);
      return registration.pushManager.subscribe(options).catch(function (error) {
        // Subscribed before with the site's former key: that subscription goes, a new one comes.
        if (!subscription) throw error;
        return subscription.unsubscribe().then(function () {
          return registration.pushManager.subscribe(options);
        });
      });
    }).then(function (made) {
      subscription = made;
      return tell(box.dataset.subscribe, made.toJSON());
    }).then(function () { show(true); });
  }

  // The server forgets it first: if it cannot be told, nothing changed.
  function turnOff() {
    return tell(box.dataset.unsubscribe, { endpoint: subscription.endpoint }).then(function () {
      var old = subscription;
      subscription = null;
      show(false);
      return old.unsubscribe().catch(function () { return false; });
    });
  }

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say(box.dataset.unsupported);
    return;
  }

  button.addEventListener("click", function () {
    button.disabled = true;
    say(box.dataset.working);
    var was = on;
    (on ? turnOff() : turnOn()).catch(function (error) {
      show(was);
      say(error instanceof Refusal ? error.text : box.dataset.failed);
    });
  });

  navigator.serviceWorker.register(box.dataset.worker, { scope: "/" }).then(function () {
    return navigator.serviceWorker.ready;
  }).then(function (ready) {
    registration = ready;
    box.dataset.workerReady = "1";
    return ready.pushManager.getSubscription();
  }).then(function (existing) {
    subscription = existing;
    if (existing && Notification.permission === "granted") {
      return tell(box.dataset.status, { endpoint: existing.endpoint }).then(function (answer) {
        show(Boolean(answer.subscribed));
      });
    }
    show(false);
  }).catch(function () {
    say(box.dataset.failed);
  });
})();

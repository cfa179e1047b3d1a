// Live updates for a match page over its WebSocket: the server pushes this seat's partials, or only
// the board fragments that changed since the board shown (a diff names its base revision), and log
// lines to append. Moves (forms marked data-act) and chat go up the same socket; with the socket
// down a move is posted as HTMX would, with the same idempotency key, so it is applied once.
(function () {
  "use strict";
  var root = document.getElementById("match");
  if (!root) return;
  var conn = document.getElementById("conn");
  var socket = null;
  var retry = 0;
  var versions = { board: -1, chat: -1 };

  function readVersions() {
    var board = document.getElementById("board");
    var chat = document.getElementById("chat");
    versions.board = board ? parseInt(board.dataset.version, 10) : -1;
    versions.chat = chat ? parseInt((chat.dataset.version || "-1").split("-")[0], 10) : -1;
  }

  // Versions are "N" (board, log) or "C-N" (chat): compared number by number.
  function newer(fresh, old) {
    var a = String(fresh || "").split("-"), b = String(old || "").split("-");
    for (var i = 0; i < Math.max(a.length, b.length); i++) {
      var x = parseInt(a[i] || "-1", 10), y = parseInt(b[i] || "-1", 10);
      if (x !== y) return x > y;
    }
    return false;
  }

  // What the user has picked or typed but not sent survives a re-render of its form: the same
  // form (by id, else by its action) in the fresh HTML gets the changed values it still offers.
  function formKey(form) {
    var action = form.querySelector("input[type=hidden][name=action]");
    return form.id || (action && action.value) || null;
  }
  function keepInput(old, fresh) {
    var forms = {};
    Array.prototype.forEach.call(fresh.querySelectorAll("form"), function (f) {
      var key = formKey(f);
      if (key && !forms[key]) forms[key] = f;
    });
    Array.prototype.forEach.call(old.querySelectorAll("form"), function (form) {
      var target = forms[formKey(form)];
      if (!target) return;
      var seen = {};
      Array.prototype.forEach.call(form.elements, function (el) {
        if (!el.name || el.type === "hidden" || el.type === "submit" || el.type === "button") return;
        var n = seen[el.name] = (seen[el.name] || 0) + 1;
        var same = Array.prototype.filter.call(target.elements, function (t) { return t.name === el.name; })[n - 1];
        if (!same || same.tagName !== el.tagName) return;
        if (el.type === "checkbox" || el.type === "radio") {
          if (el.checked !== el.defaultChecked) same.checked = el.checked;
        } else if (el.tagName === "SELECT") {
          var dirty = Array.prototype.some.call(el.options, function (o) { return o.selected !== o.defaultSelected; });
          var has = Array.prototype.some.call(same.options, function (o) { return o.value === el.value; });
          if (dirty && has) same.value = el.value;
        } else if (el.value !== el.defaultValue) {
          same.value = el.value;
        }
      });
    });
  }

  var SVG = "http://www.w3.org/2000/svg";

  // The top-level elements of ``html``.
  function parse(html) {
    var holder = document.createElement("div");
    holder.innerHTML = html;
    return Array.prototype.slice.call(holder.children);
  }

  // One fragment of a diff: a layer of an SVG drawing is parsed inside an <svg>, so that it
  // becomes SVG and not unknown HTML.
  function parseFragment(html) {
    var id = /^\s*<[\w-]+[^>]*?\sid="([^"]+)"/.exec(html);
    var old = id && document.getElementById(id[1]);
    if (!old || old.namespaceURI !== SVG) return parse(html);
    var holder = document.createElement("div");
    holder.innerHTML = "<svg>" + html + "</svg>";
    return Array.prototype.slice.call(holder.firstElementChild.children);
  }

  function swapIn(html, force) { swapElements(parse(html), force); }

  function swapElements(elements, force) {
    elements.forEach(function (fresh) {
      var old = fresh.id && document.getElementById(fresh.id);
      if (!old) return;
      // Only ever move forward: a push rendered before an HTMX answer may arrive after it.
      // Fragments of a diff carry no version: the diff's base was checked before.
      if (!force && fresh.dataset.version !== undefined && !newer(fresh.dataset.version, old.dataset.version)) return;
      var focusedId = document.activeElement && document.activeElement.id;
      keepInput(old, fresh);
      old.replaceWith(fresh);
      if (window.htmx) window.htmx.process(fresh);
      document.dispatchEvent(new CustomEvent("hideout:swapped", { detail: { id: fresh.id } }));
      if (focusedId) {
        var again = document.getElementById(focusedId);
        if (again) again.focus();
      }
    });
    tick();
    scrollChat();
    signalTurn();
  }

  // The tab shows when it is my turn: its title starts with "Your turn" and the icon gets a dot.
  var plainTitle = document.title;
  function signalTurn() {
    var mine = !!document.querySelector("#turn .your-turn");
    var label = root && root.dataset.yourTurn;
    document.title = mine && label ? label + " · " + plainTitle : plainTitle;
    var icon = document.querySelector("link[rel=icon][data-turn]");
    if (icon) icon.href = mine ? icon.dataset.turn : icon.dataset.normal;
    var was = root ? root.dataset.myTurn : undefined;
    if (root) root.dataset.myTurn = mine ? "1" : "0";
    if (mine && was === "0") announceTurn(label);
  }

  // Optional signals (profile settings, off by default): a short chime and, while the page is in
  // the background, a browser notification, when my turn begins. Not on the page's first load.
  var chime = null;
  function announceTurn(label) {
    if (!root) return;
    if (root.dataset.turnSound === "1" && (window.AudioContext || window.webkitAudioContext)) {
      try {
        chime = chime || new (window.AudioContext || window.webkitAudioContext)();
        var now = chime.currentTime, tone = chime.createOscillator(), gain = chime.createGain();
        tone.frequency.setValueAtTime(660, now);
        tone.frequency.setValueAtTime(880, now + 0.12);
        gain.gain.setValueAtTime(0.0001, now);
        gain.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.4);
        tone.connect(gain).connect(chime.destination);
        tone.start(now);
        tone.stop(now + 0.42);
      } catch (e) { /* no audio: the title and icon still say it */ }
    }
    if (root.dataset.turnNotify === "1" && document.hidden && window.Notification && Notification.permission === "granted") {
      try { new Notification(label || document.title, { body: plainTitle, tag: "hideout-turn-" + (root.dataset.match || "") }); }
      catch (e) { /* some browsers allow notifications from a service worker only */ }
    }
  }

  // The low-time warning (with the turn notification setting): once per decision, across tabs, a
  // browser notification while the page is in the background, when a tenth of the decision's time
  // (at most an hour) is left. The clock of my own turn carries when the decision began (data-since).
  function warnLowTime(now) {
    if (!root || root.dataset.turnNotify !== "1" || !document.hidden) return;
    if (!window.Notification || Notification.permission !== "granted") return;
    var el = document.querySelector("#turn .your-turn .countdown[data-since]");
    if (!el) return;
    var due = parseFloat(el.dataset.due), since = parseFloat(el.dataset.since), left = due - now;
    if (!(left > 0) || left > Math.min((due - since) / 10, 3600)) return;
    var key = "hideout-low-" + (root.dataset.match || "") + "-" + el.dataset.due;
    try {
      if (window.localStorage.getItem(key)) return;
      window.localStorage.setItem(key, "1");
    } catch (e) { return; }  // no storage: no way to say it only once
    try { new Notification(root.dataset.lowTime || document.title, { body: plainTitle, tag: "hideout-low-" + (root.dataset.match || "") }); }
    catch (e) { /* some browsers allow notifications from a service worker only */ }
  }

  var LOG_LINES = 60;

  function appendLog(items, revision) {
    var log = document.getElementById("log");
    var list = document.getElementById("log-lines");
    if (!log || !list) return;
    if (items) {
      var muted = list.querySelector("li.muted");
      if (muted) muted.remove();
      list.insertAdjacentHTML("afterbegin", items);  // newest first
      while (list.children.length > LOG_LINES) list.lastElementChild.remove();
    }
    log.dataset.version = revision;
  }

  // An update: whole partials (each with its version), or a diff of board fragments on top of
  // the board revision it names. A diff for another board than the one shown asks for a resync.
  function apply(data) {
    var board = document.getElementById("board");
    if (data.base !== undefined && data.base !== null) {
      if (!board || parseInt(board.dataset.version, 10) !== data.base) {
        if (board && parseInt(board.dataset.version, 10) >= data.revision) return;  // already newer
        sync();
        return;
      }
      var fresh = [];
      (data.frags || []).forEach(function (html) { fresh = fresh.concat(parseFragment(html)); });
      swapElements(fresh, true);
      swapIn(data.html, false);  // a chat box that came along carries its own version
      if (data.log !== undefined) appendLog(data.log, data.revision);
      board.dataset.version = data.revision;
      board.dataset.gameVersion = data.version;
      document.dispatchEvent(new CustomEvent("hideout:swapped", { detail: { id: "board" } }));
    } else {
      swapIn(data.html, false);
    }
  }

  // The shared fragments of the update that follows at once (sent apart, compressed): laid on the
  // board it names, which keeps its revision until that update brings the rest.
  function applyPart(data) {
    var board = document.getElementById("board");
    if (!board || parseInt(board.dataset.version, 10) !== data.base) return;  // its update will resync
    var fresh = [];
    (data.frags || []).forEach(function (html) { fresh = fresh.concat(parseFragment(html)); });
    swapElements(fresh, true);
  }

  // A live game's events (small JSON): handed to the game's own script; a gap asks for the board.
  function liveEvents(data) {
    var board = document.getElementById("board");
    var have = board ? parseInt(board.dataset.gameVersion, 10) : -1;
    if (data.version <= have) return;
    if (data.after !== have) { sync(); return; }
    if (board) board.dataset.gameVersion = data.version;
    document.dispatchEvent(new CustomEvent("hideout:events", { detail: data }));
  }

  function sync() {
    readVersions();
    send({ type: "sync", revision: versions.board, chat_version: versions.chat });
  }

  function send(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  // --- moves ---------------------------------------------------------------------------------------

  var pending = {};  // key -> {message, form}: sent (or waiting to be), not answered yet
  var FALLBACK_MS = 4000;

  function newKey() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID().replace(/-/g, "");
    return Date.now().toString(16) + Math.random().toString(16).slice(2);
  }

  function moveOf(form, submitter) {
    var board = document.getElementById("board");
    var data = new FormData(form, submitter || undefined);
    var message = { type: "act", action: "", fields: {}, key: newKey(),
                    version: board ? board.dataset.gameVersion : "" };
    data.forEach(function (value, name) {
      if (name === "action") message.action = value;
      else if (name === "version" || name === "key" || name === "csrfmiddlewaretoken") return;
      else (message.fields[name] = message.fields[name] || []).push(String(value));
    });
    return message;
  }

  function busy(form, on) {
    if (!form) return;
    if (on) form.dataset.sending = "1"; else delete form.dataset.sending;
    Array.prototype.forEach.call(form.querySelectorAll("button"), function (b) { b.disabled = on; });
  }

  function showError(text) {
    var board = document.getElementById("board");
    if (!board || !text) return;
    var old = board.querySelector(":scope > .error");
    if (old) old.remove();
    var div = document.createElement("div");
    div.className = "error";
    div.setAttribute("role", "alert");
    div.textContent = text;
    board.insertBefore(div, board.firstChild);
  }

  // Every answer is counted on the page (tests and assistive messages read it) and announced to
  // the game's script as a "hideout:answer" event.
  function answered(key, status, message, data) {
    var entry = pending[key];
    delete pending[key];
    if (entry) busy(entry.form, false);
    document.dispatchEvent(new CustomEvent("hideout:answer", { detail: data || { key: key, status: status, message: message } }));
    if (entry && entry.quiet) {
      if (status !== 200 && message && !entry.quietErrors) showError(message);
      return;
    }
    root.dataset.answers = String(parseInt(root.dataset.answers || "0", 10) + 1);
    root.dataset.lastStatus = String(status);
    if (status !== 200 && message) showError(message);
  }

  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; }
    catch (e) { return ""; }
  }

  // The socket is down: post the same move (same key) as a form would, and show the board answered.
  function postMove(key) {
    var entry = pending[key];
    if (!entry || entry.posted) return;
    entry.posted = true;
    var m = entry.message, body = new FormData();
    body.append("action", m.action);
    body.append("version", m.version);
    body.append("key", key);
    Object.keys(m.fields).forEach(function (name) {
      m.fields[name].forEach(function (v) { body.append(name, v); });
    });
    fetch(entry.url, { method: "POST", body: body, credentials: "same-origin",
                       headers: { "HX-Request": "true", "X-CSRFToken": csrfToken() } })
      .then(function (response) {
        return response.text().then(function (html) {
          var holder = document.createElement("div");
          holder.innerHTML = html;
          var fresh = holder.querySelector("#board");
          var error = fresh && fresh.querySelector(":scope > .error");
          if (fresh) swapIn(fresh.outerHTML, response.status !== 200);
          answered(key, response.status, error ? error.textContent : "");
        });
      })
      .catch(function () { entry.posted = false; setTimeout(function () { retryMove(key); }, FALLBACK_MS); });
  }

  function retryMove(key) {
    var entry = pending[key];
    if (!entry) return;
    if (!send(entry.message)) postMove(key);
  }

  // For a live game's script: send one action up the socket now (no version: live inputs are taken
  // in the order they arrive), answered by a "hideout:answer" event with the returned key.
  window.Hideout = {
    act: function (action, options) {
      var message = { type: "act", action: JSON.stringify(action), fields: {}, key: newKey(), version: "" };
      pending[message.key] = { message: message, form: null, url: root.dataset.action, quiet: true,
                               quietErrors: !!(options && options.quietErrors) };
      if (!send(message)) postMove(message.key);
      return message.key;
    },
    connected: function () { return !!socket && socket.readyState === WebSocket.OPEN; },
    send: function (message) { return send(message); },  // a live game's heartbeat ({type: "ping"})
    sync: function () { sync(); }
  };

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.hasAttribute || !form.hasAttribute("data-act") || event.defaultPrevented) return;
    event.preventDefault();
    if (form.dataset.sending) return;  // a form never sends twice
    var message = moveOf(form, event.submitter);
    var shown = document.querySelector("#board > .error");
    if (shown) shown.remove();
    pending[message.key] = { message: message, form: form, url: form.action };
    busy(form, true);
    if (!send(message)) postMove(message.key);
    else setTimeout(function () { if (pending[message.key] && !send(message)) postMove(message.key); }, FALLBACK_MS);
  });

  // Nor may an HTMX answer put back a board older than one a push has already shown (a live
  // game's events move its game version on, not its revision).
  document.addEventListener("htmx:beforeSwap", function (event) {
    var current = document.getElementById("board");
    var target = event.detail.target;
    if (target && target.id === "board" && !target.isConnected) {  // a push has replaced it meanwhile
      event.detail.shouldSwap = false;
      return;
    }
    if (!current || target !== current) return;
    var tag = /<section[^>]*\bid="board"[^>]*>/.exec(event.detail.serverResponse || "");
    if (!tag) return;
    var revision = /\bdata-version="([\d-]+)"/.exec(tag[0]), game = /\bdata-game-version="(\d+)"/.exec(tag[0]);
    if (revision && newer(current.dataset.version, revision[1])) event.detail.shouldSwap = false;
    if (game && parseInt(current.dataset.gameVersion, 10) > parseInt(game[1], 10)) event.detail.shouldSwap = false;
  });
  // A board HTMX swapped in (the started match's, in place of the lobby's) is news to the game's script.
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.target && event.target.id === "board") {
      document.dispatchEvent(new CustomEvent("hideout:swapped", { detail: { id: "board" } }));
    }
  });

  function scrollChat() {
    var list = document.querySelector("#chat .messages-list");
    if (list) list.scrollTop = list.scrollHeight;
  }

  function status(text) { if (conn) conn.textContent = text; }

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    readVersions();
    // The server pushes at once whatever is newer than what this page shows.
    socket = new WebSocket(scheme + location.host + root.dataset.ws + "?v=" + versions.board + "&c=" + versions.chat);
    socket.onopen = function () {
      retry = 0;
      status("");
      // Moves sent while the socket was down go again, with their keys: applied at most once.
      Object.keys(pending).forEach(function (key) { if (!pending[key].posted) send(pending[key].message); });
    };
    socket.onmessage = function (message) {
      var data = JSON.parse(message.data);
      if (data.type === "update") apply(data);
      else if (data.type === "part") applyPart(data);
      else if (data.type === "events") liveEvents(data);
      else if (data.type === "answer") answered(data.key, data.status, data.message, data);
      else if (data.type === "error") showError(data.message);
      else if (data.type === "pong") document.dispatchEvent(new CustomEvent("hideout:pong", { detail: data }));
      else if (data.type === "rtt") document.dispatchEvent(new CustomEvent("hideout:rtt", { detail: data }));
    };
    socket.onclose = function (event) {
      socket = null;
      if (event.code === 4401 || event.code === 4404) {  // signed out (or deactivated), or no such match
        status(event.code === 4401 ? (root.dataset.signedOut || "Please sign in again.") : (root.dataset.gone || "This match no longer exists."));
        return;
      }
      if (event.code === 1012 || event.code === 1001) {
        // The server is restarting (a stopped daphne says so, 1012): another one takes the page at
        // once, after a moment's spread so that its pages do not all come back in the same instant.
        retry = 0;
        status(root.dataset.offline || "Reconnecting…");
        setTimeout(connect, 100 + Math.floor(Math.random() * 400));
        return;
      }
      if (event.code === 4429) retry = 6;  // too many connections: wait the longest before trying again
      status(root.dataset.offline || "Reconnecting…");
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, 250 * Math.pow(2, retry));
    };
  }

  // A plain POST form that arrived in a push (rendered without a request, so without a CSRF token:
  // Rematch, say) gets the page's token when it is submitted.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if ((form.method || "").toLowerCase() !== "post" || form.hasAttribute("data-act") || form.elements.csrfmiddlewaretoken) return;
    var token = csrfToken();
    if (!token) return;
    var input = document.createElement("input");
    input.type = "hidden";
    input.name = "csrfmiddlewaretoken";
    input.value = token;
    form.appendChild(input);
  }, true);

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.id !== "chat-form" || !socket || socket.readyState !== WebSocket.OPEN) return;
    event.preventDefault();
    event.stopPropagation();
    var text = form.elements.text.value;
    if (!text.trim()) return;
    send({ type: "chat", text: text, to: form.elements.to.value });
    form.elements.text.value = "";
  }, true);

  function tick() {
    var now = Date.now() / 1000;
    document.querySelectorAll(".countdown[data-due]").forEach(function (el) {
      var left = Math.max(0, Math.round(parseFloat(el.dataset.due) - now));
      var d = Math.floor(left / 86400), h = Math.floor((left % 86400) / 3600);
      var m = Math.floor((left % 3600) / 60), s = left % 60;
      el.textContent = d > 0 ? d + "d " + h + "h" : (h > 0 ? h + ":" : "") + (h > 0 && m < 10 ? "0" : "") + m + ":" + (s < 10 ? "0" : "") + s;
    });
    warnLowTime(now);
  }
  setInterval(tick, 1000);
  tick();
  scrollChat();
  signalTurn();
  connect();
})();

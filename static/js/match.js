// Live updates for a match page: a WebSocket that only pushes this seat's re-rendered partials.
// Moves are HTMX POSTs; chat goes over the socket when it is open.
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

  function swapIn(html) {
    var holder = document.createElement("div");
    holder.innerHTML = html;
    Array.prototype.slice.call(holder.children).forEach(function (fresh) {
      var old = fresh.id && document.getElementById(fresh.id);
      if (!old) return;
      // Only ever move forward: a push rendered before an HTMX answer may arrive after it.
      if (!newer(fresh.dataset.version, old.dataset.version)) return;
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
  }

  // Nor may an HTMX answer put back a board older than one a push has already shown.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var current = document.getElementById("board");
    if (!current || event.detail.target !== current) return;
    var found = /<section[^>]*\bid="board"[^>]*\bdata-version="([\d-]+)"/.exec(event.detail.serverResponse || "");
    if (found && newer(current.dataset.version, found[1])) event.detail.shouldSwap = false;
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
    };
    socket.onmessage = function (message) {
      var data = JSON.parse(message.data);
      if (data.type === "update") swapIn(data.html);
      else if (data.type === "error") alert(data.message);
    };
    socket.onclose = function (event) {
      socket = null;
      if (event.code === 4401 || event.code === 4404) return;
      status(root.dataset.offline || "Reconnecting…");
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, 250 * Math.pow(2, retry));
    };
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.id !== "chat-form" || !socket || socket.readyState !== WebSocket.OPEN) return;
    event.preventDefault();
    event.stopPropagation();
    var text = form.elements.text.value;
    if (!text.trim()) return;
    socket.send(JSON.stringify({ type: "chat", text: text, to: form.elements.to.value }));
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
  }
  setInterval(tick, 1000);
  tick();
  scrollChat();
  connect();
})();

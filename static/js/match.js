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

  function swapIn(html) {
    var holder = document.createElement("div");
    holder.innerHTML = html;
    Array.prototype.slice.call(holder.children).forEach(function (fresh) {
      var old = fresh.id && document.getElementById(fresh.id);
      if (!old) return;
      if (old.dataset.version === fresh.dataset.version) return; // keep what the user is typing
      var focusedId = document.activeElement && document.activeElement.id;
      old.replaceWith(fresh);
      if (window.htmx) window.htmx.process(fresh);
      if (focusedId) {
        var again = document.getElementById(focusedId);
        if (again) again.focus();
      }
    });
    tick();
    scrollChat();
  }

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

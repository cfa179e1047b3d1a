// dirty_money's payment picker and card pickers: the submit button is enabled only for a choice the
// server accepts (R-61 to for payments; exactly the excess for a blacklist, R-22). The
// server checks everything again; without JavaScript the forms still post and get its answer.
(function () {
  "use strict";

  function fill(template, params) {
    return (template || "").replace(/%\((\w+)\)s/g, function (_, key) { return params[key]; });
  }

  function checkPayment(form) {
    var due = parseInt(form.dataset.due, 10) || 0;
    var shark = form.querySelector("select[name=shark_card]");
    var special = shark ? shark.value : "";
    var boxes = form.querySelectorAll("input[name='payment[]']");
    var worths = [], problem = "", total = 0;
    Array.prototype.forEach.call(boxes, function (box) {
      if (box.value === special && !box.checked) box.checked = true;  // the Shark's card is part of the payment
      if (!box.checked) return;
      var worth = box.value === special ? 2 : parseInt(box.dataset.worth, 10) || 0;
      worths.push(worth);
      total += worth;
      if (box.hasAttribute("data-other") && box.value !== special) problem = form.dataset.msgCurrency;
    });
    if (!problem) {
      if (due === 0) problem = worths.length ? form.dataset.msgSurplus : "";
      else if (total < due) problem = form.dataset.msgShort;
      else if (worths.some(function (w) { return total - w >= due; })) problem = form.dataset.msgSurplus;
    }
    var text = fill(form.dataset.msgTotal, { total: total, due: due });
    if (!problem && total > due) text += " " + fill(form.dataset.msgOver, { over: total - due });
    if (problem) text += " " + problem;
    var summary = form.querySelector(".dm-paysum");
    if (summary) summary.textContent = text;
    var button = form.querySelector("button[type=submit]");
    if (button && !form.dataset.sending) button.disabled = !!problem;
  }

  function checkPick(form) {
    var exact = parseInt(form.dataset.exact, 10) || 0;
    var chosen = form.querySelectorAll("input[type=checkbox]:checked").length;
    var button = form.querySelector("button[type=submit]");
    if (button && !form.dataset.sending) button.disabled = chosen !== exact;
  }

  function refresh() {
    Array.prototype.forEach.call(document.querySelectorAll("form.dm-pay"), checkPayment);
    Array.prototype.forEach.call(document.querySelectorAll("form.dm-pick"), checkPick);
  }

  document.addEventListener("change", function (event) {
    var target = event.target;
    if (!(target instanceof Element)) return;
    var pay = target.closest("form.dm-pay");
    if (pay) checkPayment(pay);
    var pick = target.closest("form.dm-pick");
    if (pick) checkPick(pick);
  });
  document.addEventListener("hideout:swapped", refresh);
  document.addEventListener("hideout:answer", function () { setTimeout(refresh, 0); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", refresh);
  else refresh();
})();

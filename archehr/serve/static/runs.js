// The runs page: sort and filter the cases (table rows and case sections) by their data attributes.
(function () {
  "use strict";
  // the run picker: a subtask shows only its runs (runs of different subtasks are not compared case by case)
  var taskSel = document.getElementById("task-filter");
  if (taskSel) {
    var pickTask = function () {
      document.querySelectorAll("#pick label[data-task]").forEach(function (l) {
        var off = taskSel.value && l.dataset.task !== taskSel.value;
        l.classList.toggle("hidden", !!off);
        if (off) l.querySelector("input").checked = false;
      });
      // the baseline choice offers the chosen subtask's runs only
      document.querySelectorAll("#baseline option[data-task]").forEach(function (o) {
        var off = taskSel.value && o.dataset.task !== taskSel.value;
        o.hidden = !!off;
        if (off && o.selected) o.parentNode.value = "";
      });
    };
    taskSel.addEventListener("change", pickTask);
    pickTask();
  }
  var table = document.getElementById("cases");
  if (!table) return;
  var sortSel = document.getElementById("sort"), spSel = document.getElementById("specialty"),
      minIn = document.getElementById("min-diff"), shown = document.getElementById("shown"),
      sections = document.getElementById("case-sections");
  function num(e, k) { var v = parseFloat(e.dataset[k]); return isNaN(v) ? null : v; }
  function cmp(mode) {
    return function (a, b) {
      var ca = a.dataset.caseId || a.dataset.case, cb = b.dataset.caseId || b.dataset.case;
      var x, y;
      if (mode === "case") return ca.localeCompare(cb, undefined, { numeric: true });
      if (mode === "specialty") {
        return a.dataset.specialty.localeCompare(b.dataset.specialty) || ca.localeCompare(cb, undefined, { numeric: true });
      }
      if (mode === "abs") { x = num(a, "abs"); y = num(b, "abs"); x = x === null ? -1 : x; y = y === null ? -1 : y; return y - x || ca.localeCompare(cb, undefined, { numeric: true }); }
      x = num(a, "delta"); y = num(b, "delta");
      x = x === null ? 0 : x; y = y === null ? 0 : y;
      return (mode === "asc" ? x - y : y - x) || ca.localeCompare(cb, undefined, { numeric: true });
    };
  }
  function apply() {
    var mode = sortSel.value, sp = spSel.value, min = parseFloat(minIn.value) || 0, n = 0;
    [table.tBodies[0], sections].forEach(function (parent) {
      var items = [].slice.call(parent.children);
      items.sort(cmp(mode));
      items.forEach(function (e) {
        var abs = num(e, "abs");
        var ok = (!sp || e.dataset.specialty.split("|").indexOf(sp) >= 0) && (min <= 0 || (abs !== null && abs >= min));
        e.classList.toggle("hidden", !ok);
        parent.appendChild(e);
        if (ok && parent === sections) n++;
      });
    });
    shown.textContent = n + " of " + sections.children.length + " cases shown";
  }
  [sortSel, spSel].forEach(function (e) { e.addEventListener("change", apply); });
  minIn.addEventListener("input", apply);
  apply();
})();

// The ask page: read a text file in the browser, POST the note and question as JSON to /api/answer, show the
// answer. Every value from the note or the answer is written with textContent: markup in a note stays text.
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var form = $("ask"), go = $("go"), status = $("status"), problems = $("problems");

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function showProblems(lines) {
    problems.textContent = "";
    lines.forEach(function (t) { problems.appendChild(el("p", "", t)); });
  }

  $("file").addEventListener("change", function () {
    var f = this.files && this.files[0];
    if (!f) return;
    var r = new FileReader();
    r.onload = function () { $("note").value = String(r.result); status.textContent = "read " + f.name; };
    r.onerror = function () { showProblems(["error: cannot read " + f.name]); };
    r.readAsText(f);
  });

  function render(a) {
    var cited = {};
    a.sentences.forEach(function (s) { if (s.cited) cited[s.id] = s; });
    var ans = $("answer");
    ans.textContent = "";
    ans.classList.toggle("abstained", !!a.abstained);
    if (!a.lines.length) ans.appendChild(el("p", "muted", "(no answer)"));
    a.lines.forEach(function (line) {
      var p = el("p", "", line.text + " ");
      if (line.citations.length) {
        p.appendChild(document.createTextNode("|"));
        line.citations.forEach(function (cid, i) {
          if (i) p.appendChild(document.createTextNode(","));
          var s = cited[cid];
          var link = el("a", "cite " + (s && s.cited_as === "supplementary" ? "lenient" : "hit"), cid);
          link.href = "#s-" + cid;
          link.title = s ? (s.cited_as || "cited") + ": " + s.text : "cited";
          p.appendChild(link);
        });
        p.appendChild(document.createTextNode("|"));
      }
      ans.appendChild(p);
    });
    if (a.abstained) {
      ans.appendChild(el("p", "small muted", a.related_ids.length
        ? "Related sentences (closest to the question, not an answer): " + a.related_ids.join(", ")
        : "No related sentence: " + (a.related_note || "no sentence of the note is about the question") + "."));
    }
    var pct = Math.round(a.confidence * 100);
    $("conf-bar").style.width = pct + "%";
    $("confidence").textContent = a.confidence.toFixed(2);
    var review = $("review");
    review.textContent = a.needs_review ? "yes: low confidence, have a clinician check this answer" : "no";
    review.className = a.needs_review ? "flag" : "okflag";
    $("system").textContent = a.system;
    $("splitter-used").textContent = a.splitter + " (" + a.sentences.length + " sentences)";
    $("seconds").textContent = a.seconds.toFixed(3) + " s";
    var fb = $("fallback");
    fb.textContent = "";
    var extra = (a.fallback ? ["Fell back: " + a.fallback] : []).concat(a.notes.map(function (n) { return "Note: " + n; }));
    extra.forEach(function (t) { fb.appendChild(el("p", "", t)); });
    fb.classList.toggle("hidden", extra.length === 0);
    var list = $("sentences");
    list.textContent = "";
    a.sentences.forEach(function (s) {
      var cls = "sent" + (s.cited ? " cited-" + (s.cited_as || "unlabelled") : s.related ? " related" : "");
      var li = el("li", cls);
      li.id = "s-" + s.id;
      li.dataset.sid = s.id;
      li.appendChild(el("span", "sid", s.id));
      li.appendChild(el("span", "text", s.text));
      if (s.cited) li.appendChild(el("span", "lab", "cited" + (s.cited_as ? ": " + s.cited_as : "")));
      if (s.related) li.appendChild(el("span", "lab", "related, not an answer"));
      li.appendChild(el("span", "small muted", " \u00b7 " + s.kind));
      list.appendChild(li);
    });
    $("result").classList.remove("hidden");
  }

  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    showProblems([]);
    var body = { note: $("note").value, question: $("question").value, splitter: $("splitter").value };
    var narrative = $("narrative").value;
    if (narrative.trim()) body.narrative = narrative;
    go.disabled = true;
    status.textContent = "answering\u2026";
    var t0 = performance.now();
    fetch("/api/answer", { method: "POST", headers: { "Content-Type": "application/json" },
                           body: JSON.stringify(body), credentials: "same-origin", cache: "no-store" })
      .then(function (r) {
        return r.json().catch(function () { return {}; }).then(function (j) { return { ok: r.ok, status: r.status, j: j }; });
      })
      .then(function (res) {
        if (!res.ok) {
          var lines = (res.j.problems || []).map(function (p) { return p.text; });
          showProblems(lines.length ? lines : ["error: the server answered " + res.status]);
          status.textContent = "refused (" + res.status + ")";
          return;
        }
        render(res.j);
        status.textContent = "answered in " + ((performance.now() - t0) / 1000).toFixed(2) + " s";
        document.body.dataset.answered = String((Number(document.body.dataset.answered) || 0) + 1);
      })
      .catch(function (e) { showProblems(["error: no answer from the server (" + e + ")"]); status.textContent = ""; })
      .then(function () { go.disabled = false; });
  });
})();

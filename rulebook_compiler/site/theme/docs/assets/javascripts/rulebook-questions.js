// A decision's question page (rulebook_compiler/site/questions.py): the answer for the facts chosen, worked
// out from the page's own data, offline. Every situation the constraints allow is a row: the index of
// each fact's value, the outcome's index and the reason's index. The rows that agree with the facts
// chosen are the situations still possible: one outcome among them is the answer; several, and the
// facts whose value still changes it are named. Text is written with textContent, never as HTML.
(function () {
  "use strict";
  var form = document.querySelector("[data-rb-question]");
  var out = document.querySelector("[data-rb-answer]");
  var source = document.getElementById("rb-question-data");
  if (!form || !out || !source) { return; }
  var data = JSON.parse(source.textContent);
  var selects = Array.prototype.slice.call(form.querySelectorAll("select"));

  function chosen() {
    return selects.map(function (s) { return s.value === "" ? null : Number(s.value); });
  }

  function matching(picked) {
    return data.rows.filter(function (row) {
      return picked.every(function (v, i) { return v === null || row[0][i] === v; });
    });
  }

  function element(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined) { e.textContent = text; }
    if (cls) { e.className = cls; }
    return e;
  }

  function clauseList(refs, heading) {
    var box = element("div");
    box.appendChild(element("p", heading, "rb-question__heading"));
    var list = element("ul");
    refs.forEach(function (ref) {
      var clause = data.clauses[ref];
      var item = element("li");
      var link = element("a", clause ? clause.cite : ref);
      if (clause) { link.href = clause.url; }
      item.appendChild(link);
      if (clause) { item.appendChild(element("span", ": " + clause.text)); }
      list.appendChild(item);
    });
    box.appendChild(list);
    return box;
  }

  // The facts not chosen whose value alone changes the outcome somewhere among the rows left (two
  // rows that differ in that fact only, with two outcomes), with the values they may take; where no
  // fact does so alone, every fact not chosen that may take more than one value (as rulebook ask).
  function needed(rows, picked) {
    var open = [];
    data.facts.forEach(function (fact, i) { if (picked[i] === null) { open.push(i); } });
    function valuesOf(i) {
      var seen = {};
      rows.forEach(function (row) { seen[row[0][i]] = true; });
      return Object.keys(seen).map(Number).sort(function (a, b) { return a - b; });
    }
    function alone(i) {
      var groups = {};
      return rows.some(function (row) {
        var key = row[0].map(function (v, j) { return j === i ? "*" : v; }).join(",");
        if (!(key in groups)) { groups[key] = row[1]; return false; }
        return groups[key] !== row[1];
      });
    }
    var found = open.filter(alone);
    if (!found.length) { found = open.filter(function (i) { return valuesOf(i).length > 1; }); }
    return found.map(function (i) {
      var fact = data.facts[i];
      return fact.label + " (" + valuesOf(i).map(function (v) { return fact.values[v]; }).join(", ") + ")";
    });
  }

  function show() {
    var picked = chosen();
    var rows = matching(picked);
    out.textContent = "";
    if (rows.length === 0) {
      out.appendChild(element("p", "No situation has these facts: the rules rule it out.", "rb-question__none"));
      return;
    }
    var outcomes = {};
    rows.forEach(function (row) { outcomes[row[1]] = true; });
    var kinds = Object.keys(outcomes);
    if (kinds.length > 1) {
      out.appendChild(element("p", "Not decided yet: it is " + kinds.map(function (k) { return data.outcomes[Number(k)]; })
        .join(" or ") + ", depending on the facts not known.", "rb-question__open"));
      var facts = needed(rows, picked);
      if (facts.length) { out.appendChild(element("p", "It still depends on: " + facts.join("; ") + ".")); }
      return;
    }
    var answer = data.outcomes[Number(kinds[0])];
    var head = element("p", "", "rb-question__result");
    head.appendChild(element("strong", "Answer: " + answer));
    out.appendChild(head);
    var standing = {}, overridden = {};
    rows.forEach(function (row) {
      var reason = data.reasons[row[2]];
      reason[0].forEach(function (r) { standing[r] = true; });
      reason[1].forEach(function (r) { overridden[r] = true; });
    });
    var given = Object.keys(standing).sort();
    var beaten = Object.keys(overridden).filter(function (r) { return !standing[r]; }).sort();
    if (given.length) { out.appendChild(clauseList(given, "The rules that give it:")); }
    if (beaten.length) { out.appendChild(clauseList(beaten, "Rules that would answer, overridden here:")); }
  }

  selects.forEach(function (s) { s.addEventListener("change", show); });
  show();
}());

// "Your table": the report's form. It looks a line-up up in the JSON that reports/page/your_table.py
// wrote into the page and writes the answer out; it decides nothing the report's tables do not say.
// Plain script, no library: the page must work opened from disk, with no network.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("your-table-data").textContent);
  var form = document.getElementById("your-table-form");
  var answer = document.getElementById("your-answer");
  var orderLine = document.getElementById("your-order");
  var order = [];  // the samurai in the order ticked: the seating as the group typed it
  var reading = "";  // the rule reading picked ("V-2"), "" for the rules' own

  function rank(name) { return data.samurai.indexOf(name); }
  function cap(s) { return s.charAt(0).toUpperCase() + s.slice(1); }
  function names(list) { return list.map(cap).join(", "); }
  function esc(s) {
    return String(s).replace(/[&<>"]/g, function (c) { return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]; });
  }
  function count(n) { return Math.round(n).toLocaleString("en-US"); }
  function code(cmd) { return "<code class=\"command\">" + esc(cmd) + "</code>"; }
  function lineupKey(list) { return list.slice().sort(function (a, b) { return rank(a) - rank(b); }).join(","); }
  // rotations are the same seating: the canonical one starts with the first samurai of the list
  function seatingKey(list) {
    var first = 0;
    list.forEach(function (s, i) { if (rank(s) < rank(list[first])) { first = i; } });
    return list.slice(first).concat(list.slice(0, first)).join(",");
  }
  // figures come worded by Python (reports/findings/wording.py), as the page's tables word them
  function rate(r) {
    return "<strong>" + r.pct + "</strong> (" + count(r.wins) + " of " + count(r.games) + " games; 95% interval " + r.ci + ")";
  }
  function item(label, html, cls) {
    return "<li class=\"" + cls + "\"><span class=\"label\">" + label + ":</span> " + html + "</li>";
  }

  function simulate(level, extra) {
    return "kiai simulate -s " + order.join(",") + " -d " + level + " -n " + data.simulate_games +
      (extra || "") + " --seed " + data.seed;
  }

  // The heading names the seating as typed, so the figure under it is that seating's own where the
  // report played it; else the line-up's, with the words (worded in Python: whose) that name the
  // seating it is of or say it pools several. The rank, the strongest player and the losses are the
  // line-up's, and say so the same way.
  function headline(found, mine, typed) {
    if (found.seating === typed) { return rate(found); }
    return mine ? rate(mine) + esc(found.whose.played) : rate(found) + esc(found.whose.other);
  }
  // whose a figure of the line-up is, where the heading's seating is another: "" where it is the same
  function seatedAs(found, typed) { return found.seating === typed ? "" : esc(found.whose.of); }

  function answerFor(level) {
    var key = level + "|" + lineupKey(order), n = order.length, found = data.lineups[key];
    var out = ["<h3>" + esc(names(order)) + " at " + cap(level) + "</h3>", "<ul class=\"facts\">"];
    if (!found) {
      out.push(item("Win rate", "not played by the report at this level. This command answers it: " +
        code(simulate(level)), "rate"));
      return out.join("") + "</ul>";
    }
    var typed = seatingKey(order), seat = data.seatings[key];
    var mine = seat && seat.rates ? seat.rates[typed] : null, whose = seatedAs(found, typed);
    var note = whose ? " (" + whose + ")" : "";
    out.push(item("Win rate", headline(found, mine, typed), "rate"));
    var r = found.rank[0] === found.rank[1] ? String(found.rank[0]) : found.rank[0] + " to " + found.rank[1];
    out.push(item("Rank", found.of < 2 ? "the only line-up of " + n + " the report played" :
      r + " of " + found.of + " line-ups of " + n + " at " + cap(level) + (whose ? ", " + whose : "") + (found.rank[0] === found.rank[1] ? "" :
        " (a range: the line-ups around it are within noise of it)"), "rank"));
    var s = data.strongest[key];
    var strongCmd = code(simulate(level, " --strategy strongest"));
    if (s && s.games >= data.strong_min_games) {
      out.push(item("kiai's strongest player", rate(s) + note +
        (s.same ? "; on the " + count(s.same.games) + " deals both played, it won " + s.same.strong_pct + " (" +
          count(s.same.strong_wins) + ") and the default " + s.same.pct + " (" + count(s.same.wins) + ")" : "") +
        (s.lo <= found.rate && found.rate <= s.hi ? "; within noise of the default's rate " +
          (note ? "so seated, " + found.pct : "above") : ""), "strongest"));
    } else {
      out.push(item("kiai's strongest player", (s ? "too few games to say (" + count(s.games) + " played, fewer than " +
        data.strong_min_games + ")" : "not played on this line-up") + ". This command answers it: " + strongCmd, "strongest"));
    }
    var eff = data.effects[level + "|" + n];
    if (eff) {
      var parts = order.map(function (m) {
        var e = eff[m];
        if (!e) { return cap(m) + ": not measured"; }
        var word = e[1] > 0 ? "helps" : e[2] < 0 ? "hurts" : "within noise";
        return cap(m) + " " + e[3] + ", " + word;
      });
      out.push(item("Each member's effect", parts.join("; ") +
        " (win rate of the line-ups of " + n + " with him minus those without)", "effects"));
    } else if (n === 7) {
      out.push(item("Each member's effect", "seven samurai make one line-up: there is none without any of them", "effects"));
    }
    var loss = data.losses[key];
    if (loss) {
      var lost = found.games - found.wins;
      var how = ["death", "farmsteads", "families"].filter(function (k) { return k in loss; }).map(function (k) {
        return count(loss[k]) + " by " + k;
      });
      var when = ["round 1", "round 2", "round 3"].filter(function (k) { return k in loss; }).map(function (k) {
        return count(loss[k]) + " in " + k;
      });
      out.push(item("How its games were lost", count(lost) + " lost" + note + ": " + how.join(", ") +
        (when.length ? "; " + when.join(", ") : ""), "losses"));
    }
    out.push(seatings(level, key, n));
    var readings = Object.keys(data.readings).filter(function (rules) { return key in data.readings[rules].rows; })
      .sort(function (a, b) { return data.readings[a].v < data.readings[b].v ? -1 : 1; });  // V-1 first
    if (readings.length) {
      // each beside the rules' own reading on the same seed: said once where all share it
      var row = function (rules) { return data.readings[rules].rows[key]; };
      var own = function (r) { return r.own.pct + " (" + count(r.own.wins) + " of " + count(r.own.games) + ")"; };
      var shared = readings.every(function (rules) { return own(row(rules)) === own(row(readings[0])); });
      out.push(item("Rule readings played", (shared ? "the rules' own " + own(row(readings[0])) + " on the same seed; " : "") +
        readings.map(function (rules) {
          var r = row(rules);
          return esc(data.readings[rules].words) + " (<code>" + esc(rules) + "</code>) " + r.pct + " (" + count(r.wins) +
            " of " + count(r.games) + ")" + (shared ? "" : " against the rules' own " + own(r));
        }).join("; ") + ". Pick a reading above for its interval", "readings"));
    }
    return out.join("") + "</ul>";
  }

  function seatings(level, key, n) {
    if (n === 2) { return item("Seating", "two samurai have a single seating", "seating"); }
    var seat = data.seatings[key], typed = seatingKey(order);
    var cmd = code("kiai compare -s " + order.join(",") + " -d " + level + " -n " + data.compare_games + " --seed " + data.seed);
    if (!seat) {
      return item("Seating", "the report did not play this line-up's seatings at " + cap(level) +
        ". This command plays them all and ranks them: " + cmd, "seating");
    }
    var rows = seat.rows, mine = null, lo = rows[0], hi = rows[0];
    rows.forEach(function (row) {
      if (row[0] === typed) { mine = row; }
      if (row[1] / row[2] < lo[1] / lo[2]) { lo = row; }
      if (row[1] / row[2] > hi[1] / hi[2]) { hi = row; }
    });
    var text = seat.best ? "sit " + esc(names(seat.best.split(","))) + " clockwise (" + hi[5] +
      "): of the " + rows.length + " seatings played, its interval lies above every other's" :
      "no seating stands out: the " + rows.length + " seatings played range from " + lo[5] + " to " +
      hi[5] + ", and their intervals (simultaneous over the " + rows.length + ") overlap";
    text += mine ? "; yours, " + esc(names(order)) + ": " + mine[5] + " (" + count(mine[1]) +
      " of " + count(mine[2]) + ")" : "; yours was not played: " + cmd;
    return item("Seating", text, "seating");
  }

  // -------------------------------------------------------------- under a rule reading

  function readingOf(v) {
    return data.rule_readings.filter(function (r) { return r.v.toLowerCase() === String(v).toLowerCase(); })[0];
  }
  function rulesOf(r) { return r.name + "=" + r.value; }
  // the line-ups of n samurai the report played under reading r at a level
  function playedUnder(r, level, n) {
    var entry = data.readings[rulesOf(r)];
    return entry ? Object.keys(entry.rows).filter(function (k) {
      var parts = k.split("|");
      return parts[0] === level && parts[1].split(",").length === n;
    }).map(function (k) { return k.split("|")[1]; }) : [];
  }

  function answerUnder(level, r) {
    var key = level + "|" + lineupKey(order), n = order.length, entry = data.readings[rulesOf(r)];
    var found = entry && entry.rows[key], option = " --rule " + rulesOf(r);
    var out = ["<h3>" + esc(names(order)) + " at " + cap(level) + ", " + esc(r.v) + ": " + esc(r.words) + "</h3>",
      "<ul class=\"facts\">"];
    if (found) {
      out.push(item("Win rate under " + esc(r.v), rate(found) + "; under the rules' own reading, on the same seed (its first games are the same deals): " +
        found.own.pct + " (" + count(found.own.wins) + " of " + count(found.own.games) + ")", "rate"));
    } else {
      out.push(item("Win rate under " + esc(r.v), "not played by the report for this line-up at " + cap(level) +
        ". This command answers it: " + code(simulate(level, option)) + "; this one sets it beside the rules' own " +
        "on the same deals: " + code("kiai compare -s " + order.join(",") + " -d " + level + " -n " + data.compare_games +
        " --rules " + r.name + "=" + r.own + "," + r.value + " --seed " + data.seed), "rate"));
    }
    var where = data.levels.map(function (lv) {
      var list = playedUnder(r, lv, n);
      return list.length ? list.map(function (lu) { return names(lu.split(",")); }).join(" and ") + " at " + cap(lv) : "";
    }).filter(function (s) { return s; });
    out.push(item("Played under " + esc(r.v), (where.length ? "the report played <code>" + esc(option.trim()) +
      "</code> with " + n + " samurai only on " + esc(where.join("; ")) + ", each seated in its own order" :
      "the report played <code>" + esc(option.trim()) + "</code> on no line-up of " + n + " samurai") +
      ". The rank, kiai's strongest player, each member's effect, how games were lost and the seatings are the rules' " +
      "own reading's: pick it above to read them", "scope"));
    return out.join("") + "</ul>";
  }

  // the readings offered: those played at this level with this many samurai, and the one picked
  function fillReadings(level) {
    var select = form.elements.rules, n = order.length;
    var offered = data.rule_readings.filter(function (r) { return n >= 2 && playedUnder(r, level, n).length; });
    var picked = readingOf(reading);
    var options = ["<option value=\"\">the rules' own</option>"].concat(offered.map(function (r) {
      return "<option value=\"" + esc(r.v) + "\">" + esc(r.v + ": " + r.words) + "</option>";
    }));
    if (picked && offered.indexOf(picked) < 0) {
      options.push("<option value=\"" + esc(picked.v) + "\">" + esc(picked.v + ": " + picked.words) +
        " (not played here)</option>");
    }
    select.innerHTML = options.join("");
    select.value = picked ? picked.v : "";
  }

  function show(html, cls) { answer.className = "answer" + (cls ? " " + cls : ""); answer.innerHTML = html; }

  function update(writeHash) {
    var level = form.elements.level.value;
    orderLine.textContent = order.length ? "Seated clockwise: " + names(order) : "";
    fillReadings(level);
    if (writeHash) {
      var hash = order.length ? "#table=" + order.join(",") + "&level=" + level + (reading ? "&rules=" + reading : "") : "";
      history.replaceState(null, "", location.pathname + location.search + hash);
    }
    if (order.length < 2) { show("<p>Tick your samurai (2 to 7) and pick a level.</p>"); return; }
    show(reading ? answerUnder(level, readingOf(reading)) : answerFor(level));
  }

  // A link sets the whole form: the keys below, each once. A section's anchor (#in-short) only
  // scrolls, and leaves the form as it is; an empty fragment is a fresh form; a link without
  // table= answers nothing, so that no earlier answer stays up beside it.
  var KEYS = ["table", "level", "rules"];

  function fromHash() {
    var hash = location.hash.replace(/^#/, "");
    var params = new URLSearchParams(hash), problems = [];
    var given = KEYS.filter(function (k) { return params.has(k); });
    if (hash && !given.length) { return; }
    // a key given twice has no one value: refused, rather than the first taken in silence
    var twice = given.filter(function (k) { return params.getAll(k).length > 1; });
    twice.forEach(function (k) { problems.push("the link gives " + k + "= twice; give it once"); });
    function one(k) { return twice.indexOf(k) < 0 ? params.get(k) : null; }
    if (hash && !params.has("table")) { problems.push("the link names no table (table=NAME,NAME,...)"); }
    var wanted = (one("table") || "").split(",").map(function (s) { return s.trim().toLowerCase(); })
      .filter(function (s) { return s; });
    var level = (one("level") || data.default_level).toLowerCase();
    var rules = (one("rules") || "").trim();
    var unknown = wanted.filter(function (s) { return rank(s) < 0; });
    if (unknown.length) {
      problems.push("unknown samurai " + unknown.map(function (s) { return "'" + s + "'"; }).join(", ") +
        " (known: " + data.samurai.join(", ") + ")");
    }
    if (data.levels.indexOf(level) < 0) { problems.push("unknown level '" + level + "' (known: " + data.levels.join(", ") + ")"); }
    if (rules && !readingOf(rules)) {
      problems.push("unknown rule reading '" + rules + "' (known: " + data.rule_readings.map(function (r) { return r.v; })
        .join(", ") + "; leave it out for the rules' own)");
    }
    var kept = wanted.filter(function (s, i) { return rank(s) >= 0 && wanted.indexOf(s) === i; });
    if (kept.length !== wanted.length - unknown.length) { problems.push("a samurai is named twice"); }
    if (!problems.length && hash && (kept.length < 2 || kept.length > 7)) {
      problems.push("a table seats 2 to 7 samurai, the link names " + kept.length);
    }
    order = kept;
    reading = rules && readingOf(rules) ? readingOf(rules).v : "";
    Array.prototype.forEach.call(form.elements.samurai, function (box) { box.checked = order.indexOf(box.value) >= 0; });
    if (data.levels.indexOf(level) >= 0) { form.elements.level.value = level; }
    if (problems.length) {
      fillReadings(form.elements.level.value);
      orderLine.textContent = order.length ? "Seated clockwise: " + names(order) : "";
      show("<p>This link cannot be answered: " + esc(problems.join("; ")) + ". Tick your samurai instead.</p>", "error");
      return;
    }
    update(false);
  }

  form.addEventListener("change", function (e) {
    if (e.target.name === "samurai") {
      var at = order.indexOf(e.target.value);
      if (e.target.checked && at < 0) { order.push(e.target.value); }
      if (!e.target.checked && at >= 0) { order.splice(at, 1); }
    }
    if (e.target.name === "rules") { reading = e.target.value; }
    update(true);
  });
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  window.addEventListener("hashchange", fromHash);
  fromHash();
}());

/*
 * heat · audience page (browser side).
 *
 * Owns everything the room sees after audience.html loads: it listens to the
 * server's Server-Sent Events at /events, builds the debate view from the
 * items (header status + heat gauge, one <section class="round"> per round
 * with a column per seat and each turn's citations as checked (a line
 * opens on the cited lines), the judge's verdict card, the room's tally and vote
 * buttons, the final card), and posts votes to /vote.
 *
 * Rules it keeps (the server's CSP has Trusted Types 'none'): the DOM is built
 * only with createElement / textContent / classList / setAttribute / append;
 * model text is untrusted and only ever goes in as text.
 *
 * On every (re)connect the server replays the whole debate, so the first
 * message after each `open` resets the view and state before it is applied.
 * The visitor's own votes (round -> side) survive resets: they live in a Map
 * mirrored to localStorage under "heat-votes".
 */
"use strict";

(function () {
  const STORE_KEY = "heat-votes";
  const $ = (id) => document.getElementById(id);
  const ui = {
    proposition: $("proposition"),
    status: $("status"),
    heat: $("heat"),
    heatValue: $("heat-value"),
    rounds: $("rounds"),
  };

  // ---- state (everything except `votes` is rebuilt on each replay) ----
  let state = freshState();
  let needsReset = false;   // set by onopen: the next message is a full replay
  let connection = "connecting"; // "connecting" | "live" | "reconnecting"
  let source = null;
  let retryDelay = 2000;

  // The visitor's votes: round number -> side (a role, "even", or null when
  // the server said "already voted" but we never learned for whom).
  const votes = new Map();
  let votesFor = null; // the proposition these votes belong to
  const pending = new Set(); // rounds with a vote request in flight

  function freshState() {
    return {
      proposition: "",
      seats: [],          // [{role, label}] in screen order
      round: 0,           // newest round seen
      of: 0,              // round limit
      heat: null,
      paused: false,
      ended: false,
      voting: new Set(),  // rounds that accept votes now
      views: new Map(),   // round number -> RoundView
    };
  }

  // ---- small helpers ----
  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function labelFor(role) {
    if (role === "even") return "Even";
    const seat = state.seats.find((s) => s.role === role);
    if (seat && seat.label) return seat.label;
    const r = String(role || "");
    return r.charAt(0).toUpperCase() + r.slice(1);
  }

  function fmtHeat(h) {
    const n = Number(h);
    return Number.isFinite(n) ? n.toFixed(2).replace(/0$/, "") : "–";
  }

  function nearBottom() {
    const doc = document.documentElement;
    return window.innerHeight + window.scrollY >= doc.scrollHeight - 120;
  }

  // ---- local memory of votes ----
  function loadVotes(proposition) {
    if (votesFor === proposition) return;
    votes.clear();
    votesFor = proposition;
    try {
      const saved = JSON.parse(window.localStorage.getItem(STORE_KEY) || "null");
      if (saved && saved.proposition === proposition && saved.votes) {
        for (const [round, side] of Object.entries(saved.votes)) {
          votes.set(Number(round), side);
        }
      }
    } catch (_) { /* storage unavailable or garbled: memory only */ }
  }

  function rememberVote(round, side) {
    votes.set(round, side);
    try {
      const out = { proposition: votesFor || state.proposition, votes: {} };
      for (const [r, s] of votes) out.votes[r] = s;
      window.localStorage.setItem(STORE_KEY, JSON.stringify(out));
    } catch (_) { /* private mode etc.: the Map still remembers */ }
  }

  // ---- header ----
  function renderStatus() {
    let where = state.round
      ? `Round ${state.round} of ${Math.max(state.of, state.round)}`
      : "Starting soon";
    let how;
    if (state.ended) how = "ended";
    else if (connection === "connecting") { where = "Connecting…"; how = ""; }
    else if (connection === "reconnecting") how = "reconnecting…";
    else if (state.paused) how = "paused";
    else how = "live";
    const text = how ? `${where} · ${how}` : where;
    if (ui.status.textContent !== text) ui.status.textContent = text;
    document.body.classList.toggle("paused", state.paused && !state.ended);
    document.body.classList.toggle("ended", state.ended);
    document.body.classList.toggle("offline", connection !== "live");
  }

  function setHeat(h) {
    const n = Number(h);
    if (!Number.isFinite(n)) return;
    state.heat = Math.min(1, Math.max(0.3, n));
    ui.heat.value = state.heat;
    ui.heat.textContent = fmtHeat(n);
    ui.heatValue.textContent = fmtHeat(n);
  }

  // ---- rounds ----
  // A RoundView keeps the elements of one round's section.
  function roundView(round) {
    let view = state.views.get(round);
    if (view) return view;
    if (!Number.isInteger(round) || round < 1) throw new Error(`bad round ${round}`);

    const section = el("section", "round");
    section.dataset.round = String(round);
    const headingId = `round-${round}-title`;
    section.setAttribute("aria-labelledby", headingId);
    const heading = el("h2", "round-title", `Round ${round}`);
    heading.id = headingId;

    const turns = el("div", "turns");
    turns.classList.add(`seats-${Math.min(state.seats.length || 1, 6)}`);

    const audience = el("div", "audience");
    const tally = el("div", "tally");
    const votesBox = el("div", "votes");
    const said = el("p", "vote-said");
    said.setAttribute("aria-live", "polite");
    audience.append(el("h3", "audience-title", "The room"), tally, votesBox, said);

    section.append(heading, turns, audience);
    view = { round, section, turns, turnMap: new Map(), audience, tally,
             counts: new Map(), bars: new Map(), total: null,
             votesBox, buttons: [], said, verdict: null };
    state.views.set(round, view);

    for (const seat of state.seats) turnView(view, seat.role);
    buildTally(view);
    buildVoteButtons(view);
    updateVoting(view);

    // Keep rounds in number order, before the final card if there is one.
    const later = [...state.views.values()]
      .filter((v) => v.round > round)
      .sort((a, b) => a.round - b.round)[0];
    ui.rounds.insertBefore(section, later ? later.section : $("final"));
    return view;
  }

  function turnView(view, role) {
    let turn = view.turnMap.get(role);
    if (turn) return turn;
    const box = el("article", "turn");
    box.dataset.role = role;
    const text = el("div", "text");
    box.append(el("h3", "seat", labelFor(role)), text);
    view.turns.append(box);
    turn = { box, text, raw: "", cited: null };
    view.turnMap.set(role, turn);
    return turn;
  }

  // ---- A turn's words as light Markdown (paragraphs, lists, headings,
  // bold, italics, code), built from elements and text nodes only: model
  // text never becomes markup. Drawn at most once a frame per turn.
  const dirty = new Set();
  let drawing = false;

  function redraw(turn) {
    dirty.add(turn);
    if (drawing) return;
    drawing = true;
    requestAnimationFrame(() => {
      drawing = false;
      for (const t of dirty) renderMarkdown(t.text, t.raw);
      dirty.clear();
    });
  }

  function renderMarkdown(target, raw) {
    const blocks = [];
    let list = null;
    for (const line of String(raw).replace(/\r\n?/g, "\n").split("\n")) {
      const item = /^\s*(?:[-*+]|\d{1,3}[.)])\s+(.*)$/.exec(line);
      const heading = /^\s*#{1,6}\s+(.*)$/.exec(line);
      if (item) {
        const ordered = /^\s*\d/.test(line);
        if (!list || list.ordered !== ordered) {
          list = { ordered, el: el(ordered ? "ol" : "ul") };
          blocks.push(list.el);
        }
        const li = el("li");
        inline(li, item[1]);
        list.el.append(li);
        continue;
      }
      list = null;
      if (!line.trim()) {
        blocks.push(null);
      } else if (heading) {
        const h = el("p", "heading");
        inline(h, heading[1]);
        blocks.push(h);
      } else {
        const last = blocks[blocks.length - 1];
        if (last && last.tagName === "P" && !last.classList.contains("heading")) {
          last.append(document.createElement("br"));
          inline(last, line);
        } else {
          const p = el("p");
          inline(p, line);
          blocks.push(p);
        }
      }
    }
    target.replaceChildren(...blocks.filter(Boolean));
  }

  // **bold**, __bold__, *italic*, `code`; anything else as text (no
  // _italic_: snake_case words would break).
  const INLINE = /(\*\*[^*\n]+?\*\*|__[^_\n]+?__|\*[^*\s][^*\n]*?\*|`[^`\n]+`)/;

  function inline(parent, text) {
    for (const part of text.split(INLINE)) {
      if (!part) continue;
      if (/^(\*\*|__).+\1$/.test(part)) parent.append(el("strong", null, part.slice(2, -2)));
      else if (/^`.+`$/.test(part)) parent.append(el("code", null, part.slice(1, -1)));
      else if (/^\*.+\*$/.test(part) && part.length > 2) parent.append(el("em", null, part.slice(1, -1)));
      else parent.append(document.createTextNode(part));
    }
  }

  function sides() {
    return state.seats.map((s) => s.role).concat("even");
  }

  function buildTally(view) {
    view.tally.replaceChildren();
    view.counts.clear();
    view.bars.clear();
    view.total = el("p", "total", "No votes yet");
    view.tally.append(view.total);
    for (const side of sides()) {
      const row = el("div", "tally-row");
      row.dataset.side = side;
      const name = el("span", "side", labelFor(side));
      const bar = el("meter", "tally-bar");
      bar.min = 0; bar.max = 1; bar.value = 0;
      bar.setAttribute("aria-label", `${labelFor(side)} votes`);
      const count = el("span", "count", "0");
      count.dataset.side = side;
      row.append(name, bar, count);
      view.tally.append(row);
      view.counts.set(side, count);
      view.bars.set(side, bar);
    }
  }

  function buildVoteButtons(view) {
    view.votesBox.replaceChildren(el("p", "vote-prompt", "Who argued better this round?"));
    const row = el("div", "vote-buttons");
    view.buttons = sides().map((side) => {
      const b = el("button", "vote", labelFor(side));
      b.type = "button";
      b.dataset.side = side;
      b.addEventListener("click", () => castVote(view.round, side));
      row.append(b);
      return b;
    });
    view.votesBox.append(row);
  }

  // Show the buttons only while the round is open; mark the visitor's choice.
  function updateVoting(view) {
    const open = state.voting.has(view.round);
    view.votesBox.hidden = !open;
    view.section.classList.toggle("voting", open);
    const voted = votes.has(view.round);
    const mine = votes.get(view.round);
    for (const b of view.buttons) {
      const chosen = voted && b.dataset.side === mine;
      b.disabled = voted || pending.has(view.round);
      b.classList.toggle("chosen", chosen);
      b.setAttribute("aria-pressed", chosen ? "true" : "false");
    }
    if (voted && mine && !view.said.textContent) {
      view.said.textContent = `You voted: ${labelFor(mine)}`;
    }
  }

  // ---- applying items ----
  const handlers = {
    debate(it) {
      state.proposition = String(it.proposition || "");
      state.seats = Array.isArray(it.seats)
        ? it.seats.filter((s) => s && s.role).map((s) => ({ role: String(s.role), label: String(s.label || s.role) }))
        : [];
      if (Number.isFinite(it.rounds)) state.of = it.rounds;
      ui.proposition.textContent = state.proposition || "Untitled debate";
      document.title = `${state.proposition || "Debate"} · heat`;
      loadVotes(state.proposition);
    },
    round(it) {
      const n = Number(it.round);
      if (!n) return;
      state.round = Math.max(state.round, n);
      if (Number.isFinite(it.of)) state.of = Math.max(state.of, it.of);
      if (it.heat !== undefined && n >= state.round) setHeat(it.heat);
      roundView(n);
    },
    text(it) {
      const turn = turnView(roundView(Number(it.round)), String(it.role));
      turn.raw += String(it.text ?? "");
      redraw(turn);
      turn.box.classList.add("streaming");
    },
    said(it) {
      const turn = turnView(roundView(Number(it.round)), String(it.role));
      turn.raw = String(it.text ?? "");
      redraw(turn);
      turn.box.classList.remove("streaming");
      turn.box.classList.add("done");
    },
    checked(it) {
      const turn = turnView(roundView(Number(it.round)), String(it.role));
      const list = el("ul", "cited");
      list.setAttribute("aria-label", `${labelFor(it.role)}'s citations, checked`);
      for (const check of Array.isArray(it.checks) ? it.checks : []) {
        const item = el("li", `check ${String(check.mark || "")}`);
        const lines = Array.isArray(check.lines) ? check.lines : [];
        if (lines.length) {
          const details = el("details");
          details.append(el("summary", null, check.said), el("pre", null, lines.join("\n")));
          item.append(details);
        } else {
          item.textContent = String(check.said ?? "");
        }
        list.append(item);
      }
      if (turn.cited) turn.cited.replaceWith(list);
      else turn.box.append(list);
      turn.cited = list;
    },
    verdict(it) {
      const view = roundView(Number(it.round));
      const card = el("div", "verdict");
      card.setAttribute("role", "group");
      card.setAttribute("aria-label", `Judge's verdict, round ${view.round}`);
      const ahead = it.ahead ? labelFor(it.ahead) : null;
      const title = it.resolved
        ? (ahead ? `Resolved: ${ahead} wins` : "Resolved")
        : (ahead ? `${ahead} is ahead` : "Even so far");
      const head = el("h3", "verdict-title", `Judge · ${title}`);
      if (it.ahead) card.dataset.ahead = String(it.ahead);
      card.append(head);
      // A verdict that closes the debate moves no heat: nothing follows it.
      const moves = Number(it.to) !== Number(it.from) || !it.resolved;
      if (moves && (it.from !== undefined || it.to !== undefined)) {
        const up = Number(it.to) > Number(it.from), down = Number(it.to) < Number(it.from);
        const heat = el("p", "verdict-heat",
          `Heat ${fmtHeat(it.from)} → ${fmtHeat(it.to)}${up ? " (hotter)" : down ? " (cooler)" : ""}`);
        card.append(heat);
      }
      if (it.reason) card.append(el("p", "verdict-reason", it.reason));
      if (it.next) {
        const next = el("p", "verdict-next");
        next.append(el("span", "label", "Next question: "), String(it.next));
        card.append(next);
      }
      // An argument map: each side's scorecard, then the claims still standing.
      if (Array.isArray(it.scores) && it.scores.length) {
        const scored = it.scores.map(([role, score]) => `${labelFor(role)} ${Number(score).toFixed(1)}`);
        card.append(el("p", "verdict-scores", `Scorecard: ${scored.join(" · ")} (out of 10)`));
      }
      if (Array.isArray(it.standing) && it.standing.length) {
        const list = el("ul", "verdict-claims");
        list.setAttribute("aria-label", "Claims still standing");
        for (const c of it.standing) {
          const item = el("li", "claim");
          item.dataset.side = String(c.role);
          item.append(el("span", "claim-id", `${c.id} `), String(c.claim));
          list.append(item);
        }
        card.append(el("p", "label", "Still standing:"), list);
      }
      if (view.verdict) view.verdict.replaceWith(card);
      else view.section.insertBefore(card, view.audience);
      view.verdict = card;
      if (view.round >= state.round && it.to !== undefined) setHeat(it.to);
    },
    audience(it) {
      const view = roundView(Number(it.round));
      const counts = it.counts && typeof it.counts === "object" ? it.counts : {};
      const all = Object.assign({}, counts, { even: Number(it.even) || 0 });
      // The total counts every side, even one the seats never announced.
      const total = Object.values(all).reduce((a, b) => a + (Number(b) || 0), 0);
      for (const [side, count] of view.counts) {
        const n = Number(all[side]) || 0;
        count.textContent = String(n);
        const bar = view.bars.get(side);
        bar.max = Math.max(total, 1);
        bar.value = n;
      }
      view.total.textContent = total === 1 ? "1 vote" : `${total} votes`;
    },
    voting(it) {
      state.voting = new Set((Array.isArray(it.rounds) ? it.rounds : []).map(Number));
      for (const view of state.views.values()) updateVoting(view);
    },
    paused() { state.paused = true; },
    resumed() { state.paused = false; },
    end(it) {
      state.ended = true;
      state.paused = false;
      let card = $("final");
      if (!card) {
        card = el("section", "final");
        card.id = "final";
        card.setAttribute("aria-labelledby", "final-title");
        ui.rounds.append(card);
      }
      const title = el("h2", "final-title", "The debate is over");
      title.id = "final-title";
      card.replaceChildren(title, el("p", "outcome", it.outcome || "Ended"));
      if (it.synthesis) {
        card.append(el("h3", "synthesis-title", "Synthesis"), el("div", "synthesis text", it.synthesis));
      }
      for (const view of state.views.values()) updateVoting(view);
    },
  };

  function reset() {
    state = freshState();
    ui.rounds.replaceChildren();
    ui.proposition.textContent = "Waiting for the debate…";
    ui.heat.value = 0;
    ui.heatValue.textContent = "–";
  }

  function applyMessage(data) {
    let items;
    try { items = JSON.parse(data); } catch (_) { return; }
    if (!Array.isArray(items)) items = [items];
    const follow = nearBottom();
    if (needsReset) { needsReset = false; reset(); }
    for (const it of items) {
      if (!it || typeof it !== "object") continue;
      const handle = Object.prototype.hasOwnProperty.call(handlers, it.k) ? handlers[it.k] : null;
      if (!handle) continue; // unknown kinds are ignored
      try { handle(it); } catch (err) { console.warn("heat: bad item", it, err); }
    }
    renderStatus();
    if (follow) window.scrollTo(0, document.documentElement.scrollHeight);
  }

  // ---- voting ----
  const FALLBACK = {
    401: "Your session has expired — reload the page to vote.",
    422: "Voting for this round is closed.",
    429: "Too many requests — wait a moment and try again.",
  };

  async function castVote(round, side) {
    if (votes.has(round)) return;
    const start = state.views.get(round);
    if (pending.has(round)) return;
    pending.add(round);
    if (start) {
      start.said.textContent = "Sending…";
      delete start.said.dataset.status;
      updateVoting(start);
    }
    let message, status = 0;
    try {
      const res = await fetch("/vote", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ round, side }),
      });
      status = res.status;
      if (res.ok) {
        rememberVote(round, side);
        message = "Counted — thank you";
      } else if (status === 409) {
        if (!votes.has(round)) rememberVote(round, null);
        message = `You already voted in round ${round}`;
      } else {
        let sentence = "";
        try { sentence = String((await res.json()).error || ""); } catch (_) { /* not JSON */ }
        message = sentence || FALLBACK[status] || `Your vote was not counted (error ${status}).`;
      }
    } catch (_) {
      message = "Could not reach the server — try again.";
    }
    pending.delete(round);
    // The view may have been rebuilt by a reconnect meanwhile: look it up again.
    const view = state.views.get(round);
    if (view) {
      view.said.textContent = message;
      view.said.dataset.status = String(status);
      updateVoting(view);
    }
  }

  // ---- connection ----
  function connect() {
    source = new EventSource("/events");
    source.onopen = () => {
      needsReset = true;
      connection = "live";
      retryDelay = 2000;
      renderStatus();
    };
    source.onmessage = (ev) => {
      connection = "live";
      applyMessage(ev.data);
    };
    source.onerror = () => {
      connection = "reconnecting";
      renderStatus();
      // EventSource retries by itself unless the server refused outright.
      if (source.readyState === EventSource.CLOSED) {
        source = null;
        setTimeout(connect, retryDelay);
        retryDelay = Math.min(retryDelay * 2, 30000);
      }
    };
  }

  renderStatus();
  connect();
})();

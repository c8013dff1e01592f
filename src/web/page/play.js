// The play page: a person against agents, over the JSON API (docs/web.md).
// Every text from the game is set with textContent, never as HTML.
"use strict";
const $ = (id) => document.getElementById(id);
let game = null;
let catalogue = [];
let busy = false;

async function api(method, url, body) {
  const r = await fetch(url, {
    method,
    headers: body ? { "content-type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await r.json().catch(() => ({ error: r.statusText }));
  if (!r.ok) throw data;
  return data;
}

function reveal() {
  return $("reveal").checked ? "?reveal=1" : "";
}

function problem(text) {
  $("problem").textContent = text || "";
  $("problem").hidden = !text;
}

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

// A card drawn as a card: rank and suit symbol when the name ends in a
// suit letter (red for hearts and diamonds), else the name itself.
function card(name) {
  const el = document.createElement("span");
  el.className = "card";
  const m = /^(.+?)([SHDC])$/.exec(name);
  if (m && m[1].length <= 2) {
    el.textContent = m[1] + SUITS[m[2]];
    if (m[2] === "H" || m[2] === "D") el.classList.add("red");
  } else {
    el.textContent = name;
  }
  el.title = name;
  return el;
}

function facts(list, into) {
  const ul = $(into);
  ul.textContent = "";
  if (!list.length) {
    const li = document.createElement("li");
    li.textContent = "nothing yet";
    li.className = "none";
    ul.appendChild(li);
  }
  list.forEach((f) => {
    const li = document.createElement("li");
    li.textContent = `${f.about}: ${f.label} ${f.item}`;
    li.title = f.formula;
    ul.appendChild(li);
  });
}

function render(s) {
  const table = $("table");
  table.textContent = "";
  s.places.forEach((p) => {
    if (p.kind === "books" && p.count === 0) return;
    const row = document.createElement("div");
    row.className = "place" + (p.mine ? " mine" : "");
    const label = document.createElement("span");
    label.className = "where";
    label.textContent = p.mine ? "your hand" : p.kind === "hand" ? `player ${p.owner}` : p.name;
    row.appendChild(label);
    if (p.cards) {
      p.cards.forEach((c) => row.appendChild(card(c)));
      if (!p.cards.length) row.appendChild(document.createTextNode("—"));
    } else {
      const back = document.createElement("span");
      back.className = "card back";
      back.textContent = `${p.count}`;
      back.title = `${p.count} card(s), face down`;
      row.appendChild(back);
    }
    table.appendChild(row);
  });
  const moves = $("moves");
  moves.textContent = "";
  s.legal.forEach((m) => {
    const b = document.createElement("button");
    b.className = "move";
    b.textContent = m;
    b.onclick = () => play(m);
    moves.appendChild(b);
  });
  $("moves-title").hidden = !s.legal.length;
  $("status").textContent = s.stopped
    ? `The game ended as it stood after ${s.history.length} moves, at its limit (${s.stopped}).`
    : s.over
      ? "The game is over."
    : s.my_turn
      ? `Your move, player ${s.me}.`
      : `Player ${s.turn} is thinking…`;
  if (s.know) facts(s.know, "know");
  if (s.known) facts(s.known, "known");
  const h = $("history");
  h.textContent = "";
  s.history.forEach((m) => {
    const li = document.createElement("li");
    li.textContent = m.text + (m.notes.length ? ` — ${m.notes.join("; ")}` : "");
    h.appendChild(li);
  });
  h.scrollTop = h.scrollHeight;
  $("end").hidden = !s.over;
  if (s.over) {
    const parts = s.players.map((p, i) => `${p}: ${s.scores[i]}`);
    $("score").textContent = `Score ${parts.join(", ")} · winner(s): ${s.winners.join(", ")}`;
  }
  document.body.dataset.state = s.over ? "over" : s.stopped ? "stopped" : s.my_turn ? "mine" : "waiting";
}

// Lets the agents move, one request per move, until it is the person's turn.
async function agents(s) {
  while (!s.over && !s.my_turn && !s.stopped) {
    render(s);
    s = await api("POST", `/api/games/${game}/agent${reveal()}`);
  }
  render(s);
}

function ready(yes) {
  busy = !yes;
  document.body.dataset.ready = yes ? "1" : "0";
}

async function play(text) {
  if (busy) return;
  ready(false);
  try {
    problem("");
    await agents(await api("POST", `/api/games/${game}/move${reveal()}`, { move: text }));
  } catch (e) {
    problem(e.error);
  } finally {
    ready(true);
  }
}

async function start() {
  ready(false);
  try {
    problem("");
    const r = await api("POST", "/api/games", {
      game: $("game").value,
      size: $("size").value,
      seed: Number($("seed").value || 1),
      agents: [$("agent").value],
    });
    game = r.id;
    await agents(r.state);
  } catch (e) {
    problem(e.error);
  } finally {
    ready(true);
  }
}

function agentsFor() {
  const entry = catalogue.find((g) => g.game === $("game").value);
  $("agent").length = 0;
  (entry ? entry.agents : ["random"]).forEach((a) => $("agent").add(new Option(a, a)));
}

$("start").onclick = start;
$("game").onchange = agentsFor;
$("reveal").onchange = async () => {
  if (game) render(await api("GET", `/api/games/${game}${reveal()}`));
};
$("lecture").onclick = async () => {
  try {
    const r = await api("POST", `/api/games/${game}/lecture`);
    location.href = r.url;
  } catch (e) {
    problem(e.error);
  }
};

(async () => {
  catalogue = await api("GET", "/api/games");
  catalogue.forEach((g) => $("game").add(new Option(g.game, g.game)));
  agentsFor();
})();

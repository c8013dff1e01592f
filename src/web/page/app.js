// The lecture view: talks to the JSON API (docs/web.md). Every text from a
// scenario is set with textContent, never as HTML.
"use strict";
const $ = (id) => document.getElementById(id);
let session = null;
// The view: `lecture` (the default), `hall` (the figure on the whole
// screen, for a projector) or `quiz` (a student's: no answers on the page).
const PARAMS = new URLSearchParams(location.search);
const VIEW = ["hall", "quiz"].includes(PARAMS.get("view")) ? PARAMS.get("view") : "lecture";
document.body.classList.add(`view-${VIEW}`);
// The last state drawn (quiz.js reads its score).
let lastState = null;

// Busy: a request that takes more than a moment shows a busy sign with a
// Cancel button and disables the controls until it is answered or
// cancelled (cancelling drops the request, and the server stops its work).
let inFlight = 0;
let locks = 0;
let controller = new AbortController();
let busyTimer = null;
// `lock`: a request that may change the session (or answer a question)
// disables the controls while it is under way; drawing the figure only
// shows the busy sign, and a click meanwhile is served after it.
function busy(on, lock) {
  inFlight += on ? 1 : -1;
  if (lock) locks += on ? 1 : -1;
  clearTimeout(busyTimer);
  if (inFlight > 0) {
    busyTimer = setTimeout(() => {
      $("busy").hidden = false;
      document.body.classList.add("busy");
      if (locks > 0) enable(false, true);
    }, 250);
  }
  if (locks === 0 && session) enable(true, true);
  if (inFlight === 0) {
    $("busy").hidden = true;
    document.body.classList.remove("busy");
    if (!session) ["load", "rerun"].forEach((id) => ($(id).disabled = false));
    // After the answer is drawn (its figure's request starts before this
    // timer fires), the next queued key.
    if (queued.length) setTimeout(runQueued, 0);
  }
}

async function api(method, url, body) {
  busy(true, true);
  try {
    const r = await fetch(url, {
      method,
      headers: body ? { "content-type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
      signal: controller.signal,
    });
    const data = await r.json().catch(() => ({ error: r.statusText }));
    if (!r.ok) throw data;
    return data;
  } catch (e) {
    if (e && e.name === "AbortError") throw { error: "cancelled: the page is as it was before", cancelled: true };
    throw e;
  } finally {
    busy(false, true);
  }
}

// Cancel: the page's requests dropped, the keys queued meanwhile
// forgotten, and the server told, which stops the session's work at the
// engine's next step (so the next request is answered at once).
$("cancel").onclick = () => {
  controller.abort();
  controller = new AbortController();
  queued = [];
  sayQueued();
  if (session) fetch(`/api/sessions/${session}/cancel`, { method: "POST" }).catch(() => {});
};

// The hall view's keys pressed while a request is under way: run in
// order once the page is at rest, the busy sign counting them.
let queued = [];
function sayQueued() {
  const n = queued.length;
  $("busy-what").textContent = n ? `working… ${n} step${n > 1 ? "s" : ""} waiting` : "working…";
  if (n) {
    $("busy").hidden = false;
    document.body.classList.add("busy");
  }
}
function runQueued() {
  if (inFlight > 0 || !queued.length) return;
  const next = queued.shift();
  sayQueued();
  next();
}

function showProblem(err) {
  const p = $("problem");
  const problems = err.problems || (err.problem ? [err.problem] : []);
  p.textContent = problems.length ? problems.map((x) => x.message).join("\n") : err.error;
  p.hidden = false;
  errorLines = new Set(problems.map((x) => x.line).filter((l) => l > 0));
  colour();
  return problems;
}

// Syntax colouring in the editor: the patterns of the editor grammar that
// dealer ships (editors/vscode/syntaxes/deal.tmLanguage.json, served at
// /deal.tmLanguage.json), tried in order at each position of a line, drawn
// in a layer under the transparent text area; lines with errors marked.
let rules = [];
let errorLines = new Set();

function scopeClass(name) {
  if (!name) return "";
  if (name.startsWith("comment")) return "c-comment";
  if (name.startsWith("string")) return "c-string";
  if (name.startsWith("keyword.control")) return "c-kw";
  if (name.startsWith("keyword.other")) return "c-move";
  if (name.startsWith("keyword.operator.logical")) return "c-op";
  if (name.startsWith("keyword.operator")) return "c-modal";
  if (name.startsWith("constant")) return "c-const";
  return "";
}

async function loadGrammar() {
  const g = await api("GET", "/deal.tmLanguage.json");
  const add = (p) => {
    if (p.include) return add(g.repository[p.include.slice(1)]);
    if (p.patterns && !p.match && !p.begin) return p.patterns.forEach(add);
    const src = p.match || `${p.begin}(?:\\\\.|(?!${p.end}).)*(?:${p.end})`;
    rules.push({ re: new RegExp(src, "y"), cls: scopeClass(p.name) });
  };
  g.patterns.forEach(add);
  colour();
}

function colourLine(text, into) {
  let i = 0;
  let plain = "";
  const flush = () => {
    if (plain) into.appendChild(document.createTextNode(plain));
    plain = "";
  };
  while (i < text.length) {
    let hit = null;
    for (const r of rules) {
      r.re.lastIndex = i;
      const m = r.re.exec(text);
      if (m && m[0].length) {
        hit = { text: m[0], cls: r.cls };
        break;
      }
    }
    if (!hit) {
      plain += text[i++];
      continue;
    }
    if (hit.cls) {
      flush();
      const span = document.createElement("span");
      span.className = hit.cls;
      span.textContent = hit.text;
      into.appendChild(span);
    } else {
      plain += hit.text;
    }
    i += hit.text.length;
  }
  flush();
}

function colour() {
  const hl = $("editor-hl");
  hl.textContent = "";
  $("editor").value.split("\n").forEach((text, i) => {
    const line = document.createElement("span");
    line.className = "line" + (errorLines.has(i + 1) ? " err" : "");
    line.dataset.line = String(i + 1);
    colourLine(text, line);
    hl.appendChild(line);
    hl.appendChild(document.createTextNode("\n"));
  });
  hl.scrollTop = $("editor").scrollTop;
}

// The statement just played: the last move run (else the last statement run).
function played(state) {
  const run = state.statements.filter((s) => s.index < state.pos);
  const moves = run.filter((s) => s.is_move);
  const last = moves.length ? moves[moves.length - 1] : run[run.length - 1];
  return last ? last.index : -1;
}

function render(state) {
  lastState = state;
  $("problem").hidden = true;
  errorLines = new Set();
  const list = $("statements");
  list.textContent = "";
  const ran = new Map(state.ran.map((r) => [r.index, r]));
  const just = played(state);
  state.statements.forEach((s) => {
    const i = s.index;
    const li = document.createElement("li");
    li.value = s.line;
    li.textContent = s.text;
    li.dataset.index = String(i);
    li.className = i < state.pos ? "done" : "todo";
    // The marker is on the move just played; the next statement is shown
    // as next.
    if (i === just) li.classList.add("current");
    if (i === state.pos) li.classList.add("next");
    const r = ran.get(i);
    if (r && r.expect === true) li.classList.add("held");
    if (r && r.expect === false) li.classList.add("failed");
    if (r && r.lines.length && r.expect === null) {
      const out = document.createElement("span");
      out.className = "out";
      out.textContent = r.lines.join("\n");
      li.appendChild(out);
    }
    list.appendChild(li);
  });
  // The list follows the step: the move just played scrolled into view,
  // a third of the way down the list.
  const cur = list.querySelector("li.current");
  if (cur) list.scrollTop = Math.max(0, cur.offsetTop - list.offsetTop - list.clientHeight / 3);
  if (document.activeElement !== $("editor")) $("editor").value = state.src;
  colour();
  $("where").textContent = state.student
    ? `step ${state.step}`
    : `step ${state.step} · ${state.pos}/${state.statements.length} statements`;
  const cp = $("checkpoint");
  cp.length = 1;
  state.checkpoints.forEach((c) => cp.add(new Option(c, c)));
  // The menu shows the last checkpoint passed.
  const passed = state.statements
    .slice(0, state.pos)
    .map((s) => /^checkpoint\s+"(.*)"\s*$/.exec(s.text))
    .filter((m) => m);
  cp.value = passed.length ? passed[passed.length - 1][1] : "";
  perspectives(state.agents);
  cards(state.cards || []);
  hideRows(state.locations || []);
  scenarioMenu(state.name);
  enable(true);
  // The world panel shows a world of this step only: worlds are numbered
  // afresh by every move.
  $("world").hidden = true;
  $("world").textContent = "";
  delete $("world").dataset.world;
  // The narration of this step as the REPL gives it: the move, its notes,
  // what it made known; the statements after it (answers, not the
  // expectations, which the list marks).
  $("narration").textContent = narration(state).join("\n");
  $("caption").textContent = caption(state);
  // The Ask answer was about the step before: asked again of this one.
  if ($("answer").textContent && $("q").value.trim()) ask();
  else $("answer").textContent = "";
  if (state.problem) showProblem({ problem: state.problem });
  figure();
}

// The lines of the current step: from its move on.
function narration(state) {
  const run = state.ran.filter((r) => r.index < state.pos);
  const moves = state.statements.filter((s) => s.is_move && s.index < state.pos).map((s) => s.index);
  const from = moves.length ? moves[moves.length - 1] : -1;
  const out = [];
  run
    .filter((r) => r.index >= from && r.expect === null)
    .forEach((r) => {
      out.push(...r.lines);
      out.push(...(r.narration || []));
    });
  return out;
}

// The caption under the figure: the step, the move just played in words,
// what it made known; in the hall view also the figure's legend (what it
// shows, a projection's counts in words).
function caption(state) {
  const lines = narration(state).filter((l) => !/^(\?|\?\?|checkpoint) /.test(l));
  const step = !state.step
    ? lines.length
      ? `Start: ${lines.join(" · ")}`
      : "Start: the deal, before the first move"
    : `Step ${state.step}: ${lines.join(" · ").replace(/^move /, "")}`;
  const legend = $("figure-box").dataset.legend || "";
  return legend ? `${step}\n${legend.split("\n").join(" · ")}` : step;
}

// The scenario menu names the session's own scenario (a session opened by
// `?session=ID` may come from a game, which no file holds).
function scenarioMenu(name) {
  const menu = $("scenario");
  if (!name) return;
  let opt = [...menu.options].find((o) => o.value === name);
  if (!opt) {
    opt = [...menu.options].find((o) => o.dataset.own) || new Option();
    opt.text = name;
    opt.value = name;
    opt.dataset.own = "1";
    if (!opt.parentNode) menu.add(opt, 0);
  }
  menu.value = name;
}

// One checkbox a location: its rows left out of the boxes.
function hideRows(locations) {
  const box = $("hide-rows");
  const was = new Set([...box.querySelectorAll("input:checked")].map((c) => c.value));
  if (box.dataset.locations === locations.join(",")) return;
  box.dataset.locations = locations.join(",");
  box.textContent = "";
  if (!locations.length) return;
  box.append("Hide ");
  locations.forEach((loc) => {
    const l = document.createElement("label");
    const c = document.createElement("input");
    c.type = "checkbox";
    c.value = loc;
    c.checked = was.has(loc);
    c.onchange = () => figure();
    l.append(c, ` ${loc} `);
    box.appendChild(l);
  });
}

// The perspectives offered: everyone, each agent (K), and E, C and D of
// every group of two or more agents (all groups up to four agents, else
// the whole group). A value is `ACCESS:agents`, e.g. `C:0,1`.
function perspectives(agents) {
  const ag = $("agent");
  const chosen = ag.value;
  ag.length = 1;
  agents.forEach((a, i) => ag.add(new Option(`${a} (K)`, `K:${i}`)));
  const only = $("only");
  const was = only.value;
  only.length = 1;
  agents.forEach((a, i) => only.add(new Option(a, String(i))));
  only.value = [...only.options].some((o) => o.value === was) ? was : "";
  const all = agents.map((_, i) => i);
  const groups = [];
  if (agents.length <= 4) {
    for (let mask = 1; mask < 1 << agents.length; mask++) {
      const g = all.filter((i) => mask & (1 << i));
      if (g.length >= 2) groups.push(g);
    }
  } else if (agents.length >= 2) {
    groups.push(all);
  }
  for (const access of ["E", "C", "D"]) {
    groups.forEach((g) => {
      const names = g.map((i) => agents[i]).join(",");
      ag.add(new Option(`${access}{${names}}`, `${access}:${g.join(",")}`));
    });
  }
  ag.value = [...ag.options].some((o) => o.value === chosen) ? chosen : "";
}

// The views a lecturer picks: whose worlds (`only`) and which card.
function cards(names) {
  const c = $("card");
  const chosen = c.value;
  c.length = 1;
  names.forEach((n) => c.add(new Option(n, n)));
  c.value = names.includes(chosen) ? chosen : "";
}

function enable(on, fromBusy) {
  if (!fromBusy && locks > 0 && on) return;
  ["load", "back", "step", "checkpoint", "agent", "only", "card", "all", "full", "hall", "q", "ask-button", "rerun"].forEach((id) => {
    $(id).disabled = !on && (!["load", "rerun"].includes(id) || fromBusy);
  });
  $("hide-rows").querySelectorAll("input").forEach((c) => (c.disabled = !on));
  // The quiz mode (quiz.js) keeps the perspective, which shades the figure, off.
  if (document.body.classList.contains("quiz")) $("agent").disabled = true;
  ["svg", "dot", "png"].forEach((id) => {
    $(id).hidden = !on;
  });
  $("q").placeholder = on ? (lastState && lastState.example) || "? K1 hand2(Q)" : "load a scenario first";
}

function perspective() {
  const v = $("agent").value;
  if (!v) return null;
  const [access, agents] = v.split(":");
  return { access, agents };
}

function figureUrl(format) {
  const p = new URLSearchParams({ format });
  const view = perspective();
  if (view) {
    p.set("agents", view.agents);
    p.set("access", view.access);
  }
  if ($("card").value) p.set("for", $("card").value);
  if ($("only").value) p.set("only", $("only").value);
  const hide = [...$("hide-rows").querySelectorAll("input:checked")].map((c) => c.value);
  if (hide.length) p.set("hide", hide.join(","));
  if ($("all").checked) p.set("all", "1");
  return `/api/sessions/${session}/figure?${p}`;
}

// The figure the page draws: laid out for its box's shape, every text at
// the label size, its legend in the caption under it (the downloads are
// the figure as `dealer export` writes it). The hall view draws at most 12
// boxes.
function screenUrl() {
  const p = new URLSearchParams();
  const box = $("figure-box");
  const high = VIEW === "hall" ? hallHeight() : VIEW === "quiz" ? innerHeight - 190 : innerHeight * 0.62;
  p.set(VIEW === "hall" ? "fit" : "layout", VIEW === "hall" ? "hall" : "screen");
  p.set("aspect", (Math.max(1, box.clientWidth) / Math.max(1, high)).toFixed(3));
  return `${figureUrl("svg")}&${p}`;
}

// The figure's SVG placed inline (it is dealer's own output, every text
// escaped), so that its worlds can be clicked and highlighted.
function inline(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = doc.documentElement;
  if (svg.nodeName !== "svg") return null;
  svg.querySelectorAll("script, foreignObject").forEach((e) => e.remove());
  svg.querySelectorAll("*").forEach((e) =>
    [...e.attributes].forEach((a) => a.name.startsWith("on") && e.removeAttribute(a.name)),
  );
  return document.importNode(svg, true);
}

// The engine's world a figure node stands for, if it is a world: the
// built-in SVG says it in `data-world` (its title is the world's name, as
// `why` gives it); Graphviz titles a node by its key, `w3`.
function worldOf(g) {
  if (!g) return null;
  if (g.dataset && g.dataset.world !== undefined) return Number(g.dataset.world);
  const t = g.querySelector(":scope > title");
  const m = t && /^w(\d+)$/.exec(t.textContent.trim());
  return m ? Number(m[1]) : null;
}

async function highlight(box) {
  const view = perspective();
  if (!view || $("card").value || box.dataset.projected) return;
  const p = new URLSearchParams({ agents: view.agents, access: view.access });
  const r = await api("GET", `/api/sessions/${session}/perspective?${p}`).catch(() => null);
  if (!r) return;
  const lit = new Set(r.worlds);
  box.querySelectorAll("g").forEach((g) => {
    const w = worldOf(g);
    if (w !== null && lit.has(w)) g.classList.add("hl");
  });
  box.dataset.highlighted = [...lit].sort((a, b) => a - b).join(",");
}

// The hall's caption at the size of the figure's smallest text (not under
// the hall's least size, nor over 3.2% of the screen's height). The
// figure is not drawn again for its box's new shape: the caption changes
// by a few pixels, and the drawing scales with its box.
function hallCaption(svg, tries = 0) {
  const cap = $("caption");
  const least = smallestText(svg);
  // Not laid out yet: at the next frame.
  if (!(least < Infinity)) {
    if (tries < 20 && svg.isConnected) requestAnimationFrame(() => hallCaption(svg, tries + 1));
    return;
  }
  const floor = Math.max(20, innerHeight * 0.0225);
  const size = Math.max(floor, Math.min(least, innerHeight * 0.032));
  if (Math.abs(parseFloat(getComputedStyle(cap).fontSize) - size) >= 0.5) cap.style.fontSize = `${size.toFixed(1)}px`;
  cap.dataset.least = least.toFixed(1);
  // The new caption may move the drawing (its box takes what the caption
  // leaves), and fonts may load late: follow until the text stays put.
  if (tries < 20) {
    requestAnimationFrame(() => {
      if (svg.isConnected && Math.abs(smallestText(svg) - least) >= 0.5) hallCaption(svg, tries + 1);
    });
  }
}
if (VIEW === "hall" && document.fonts) {
  document.fonts.ready.then(() => {
    const svg = $("figure-box").querySelector("svg");
    if (svg) hallCaption(svg);
  });
}
// The box's size may still change after the figure is drawn (the page
// settling): the caption follows the drawing's text.
if (VIEW === "hall" && window.ResizeObserver) {
  new ResizeObserver(() => {
    const svg = $("figure-box").querySelector("svg");
    if (svg) hallCaption(svg);
  }).observe($("figure-box"));
}

async function figure() {
  if (!session) return;
  const url = screenUrl();
  $("svg").href = figureUrl("svg");
  $("dot").href = figureUrl("dot");
  $("png").href = figureUrl("png");
  let r;
  busy(true);
  try {
    r = await fetch(url, { signal: controller.signal });
  } catch (e) {
    $("figure-error").textContent = "cancelled: the figure was not drawn";
    $("figure-error").hidden = false;
    $("figure-box").dataset.ready = "1";
    return;
  } finally {
    busy(false);
  }
  const box = $("figure-box");
  box.dataset.highlighted = "";
  // A model too large to draw comes back as one card's projection: the
  // card menu says which card the server chose.
  const projected = r.headers.get("x-dealer-projected") || "";
  box.dataset.projected = projected;
  $("card").options[0].text = projected ? `auto: ${projected}` : "whole model";
  if (r.ok) {
    const svg = inline(await r.text());
    box.textContent = "";
    if (svg) box.appendChild(svg);
    // The hall's figure leaves its legend to the caption.
    box.dataset.legend = (svg && svg.dataset.legend) || "";
    if (lastState) $("caption").textContent = caption(lastState);
    legible();
    $("figure-error").hidden = true;
    if (VIEW === "hall" && svg) hallCaption(svg);
    await highlight(box);
  } else {
    const e = await r.json().catch(() => ({ error: r.statusText }));
    box.textContent = "";
    $("figure-error").textContent = e.error;
    $("figure-error").hidden = false;
  }
  box.dataset.ready = "1";
}

async function act(method, path, body) {
  try {
    render(await api(method, `/api/sessions/${session}${path}`, body));
  } catch (e) {
    showProblem(e);
  }
}

async function load(body) {
  try {
    const r = await api("POST", "/api/sessions", { ...body, view: VIEW });
    session = r.id;
    render(r.state);
  } catch (e) {
    showProblem(e);
  }
}

$("load").onclick = () => {
  const opt = $("scenario").selectedOptions[0];
  if (opt && opt.dataset.own && session) return act("GET", "");
  return load({ path: $("scenario").value });
};
$("step").onclick = () => act("POST", "/step");
$("back").onclick = () => act("POST", "/back", { n: 1 });
$("checkpoint").onchange = () => $("checkpoint").value && act("POST", "/goto", { name: $("checkpoint").value });
$("rerun").onclick = () => (session ? act("PUT", "", { src: $("editor").value }) : load({ src: $("editor").value }));
$("agent").onchange = () => figure();
$("editor").oninput = () => {
  errorLines = new Set();
  colour();
};
$("editor").onscroll = () => {
  $("editor-hl").scrollTop = $("editor").scrollTop;
};
$("figure-box").onclick = async (ev) => {
  const g = ev.target.closest && ev.target.closest("g");
  let w = null;
  for (let n = g; n && n !== $("figure-box") && w === null; n = n.parentElement && n.parentElement.closest("g")) {
    w = worldOf(n);
  }
  if (w === null || !session) return;
  try {
    const info = await api("GET", `/api/sessions/${session}/world/${w}`);
    const rows = info.places.map(([loc, cards]) => `  ${loc}: ${cards || "—"}`);
    if (info.props.length) rows.push(`  true: ${info.props.join(" ")}`);
    $("world").textContent = `world ${info.name}${info.actual ? " (the actual world)" : ""}\n${rows.join("\n")}`;
    $("world").dataset.world = String(info.id);
    $("world").hidden = false;
  } catch (e) {
    $("world").textContent = e.error;
    $("world").hidden = false;
  }
};
$("card").onchange = () => figure();
$("only").onchange = () => figure();
$("all").onchange = () => figure();
// Full screen: the figure as large as the screen allows, and its text
// never under 18 px, legible from the back of a lecture hall; a figure too
// large for both is drawn larger than the screen and scrolls.
const LEGIBLE = 18;

// The smallest text of the figure as drawn on the screen, in px.
function smallestText(svg) {
  let least = Infinity;
  svg.querySelectorAll("text").forEach((t) => {
    const m = t.getScreenCTM();
    const size = parseFloat(getComputedStyle(t).fontSize);
    if (m && size > 0 && t.textContent.trim()) least = Math.min(least, size * Math.hypot(m.a, m.b));
  });
  return least;
}

function legible() {
  const box = $("figure-box");
  const svg = box.querySelector("svg");
  if (!svg) return;
  svg.style.width = "";
  svg.style.height = "";
  if (document.fullscreenElement !== box) return;
  const least = smallestText(svg);
  if (!(least < LEGIBLE)) return;
  // The drawing enlarged by k, its box no larger than the drawing (so it
  // scrolls only where it has to).
  const k = LEGIBLE / least;
  const vb = svg.viewBox.baseVal;
  const m = svg.getScreenCTM();
  const r = svg.getBoundingClientRect();
  const [w, h] = vb && vb.width && m ? [vb.width * m.a, vb.height * m.d] : [r.width, r.height];
  svg.style.width = `${Math.ceil(w * k)}px`;
  svg.style.height = `${Math.ceil(h * k)}px`;
}
document.addEventListener("fullscreenchange", legible);

$("full").onclick = () => {
  const box = $("figure-box");
  if (document.fullscreenElement) document.exitFullscreen();
  else if (box.requestFullscreen) box.requestFullscreen();
};
async function ask() {
  if (!session) return;
  $("answer").textContent = "…";
  try {
    const r = await api("POST", `/api/sessions/${session}/query`, { q: $("q").value });
    $("answer").textContent = r.lines.join("\n");
  } catch (e) {
    $("answer").textContent = e.error;
  }
}
$("ask").onsubmit = (ev) => {
  ev.preventDefault();
  ask();
};
$("hall").onclick = () => {
  const p = new URLSearchParams();
  p.set("view", "hall");
  if (session) p.set("session", session);
  location.href = `/?${p}`;
};

// The hall view's keys: a clicker's Page Down, the arrows, space and
// Enter step forward, Page Up, the arrows and Backspace back; `?` opens
// the ask box (Escape closes it).
function hallHeight() {
  const b = $("figure-box");
  return b.clientHeight || window.innerHeight * 0.85;
}
if (VIEW === "hall") {
  document.addEventListener("keydown", (ev) => {
    if (document.body.classList.contains("asking")) {
      if (ev.key === "Escape") document.body.classList.remove("asking");
      return;
    }
    if (ev.target.matches && ev.target.matches("input, textarea, select")) return;
    if (ev.key === "?") {
      ev.preventDefault();
      document.body.classList.add("asking");
      $("q").focus();
      return;
    }
    if (!session) return;
    let action = null;
    if (["ArrowRight", "ArrowDown", " ", "PageDown", "Enter"].includes(ev.key)) {
      action = () => act("POST", "/step");
    } else if (["ArrowLeft", "ArrowUp", "PageUp", "Backspace"].includes(ev.key)) {
      action = () => act("POST", "/back", { n: 1 });
    }
    if (!action) return;
    ev.preventDefault();
    // A key pressed while the page is busy waits its turn (the busy sign
    // counts it); none is dropped.
    if (inFlight > 0 || queued.length) {
      queued.push(action);
      sayQueued();
    } else {
      action();
    }
  });
  let resized = null;
  window.addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(() => figure(), 300);
  });
}

(async () => {
  loadGrammar().catch(() => {});
  const list = await api("GET", "/api/scenarios");
  list.forEach((s) => $("scenario").add(new Option(s, s)));
  const params = PARAMS;
  const want = params.get("scenario");
  const open = params.get("session");
  if (open) {
    // A session made elsewhere (a game from the play page).
    try {
      session = open;
      render(await api("GET", `/api/sessions/${open}`));
    } catch (e) {
      session = null;
      showProblem(e);
    }
  } else if (want) {
    // `?scenario=gofish/simplified.deal&at=turn%202` opens at a checkpoint.
    $("scenario").value = want;
    await load({ path: want });
    const at = params.get("at");
    if (at && session) await act("POST", "/goto", { name: at });
  }
})();

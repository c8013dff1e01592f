// The lecture view: talks to the JSON API (docs/web.md). Every text from a
// scenario is set with textContent, never as HTML.
"use strict";
const $ = (id) => document.getElementById(id);
let session = null;

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

function showProblem(err) {
  const p = $("problem");
  const problems = err.problems || (err.problem ? [err.problem] : []);
  p.textContent = problems.length ? problems.map((x) => x.message).join("\n") : err.error;
  p.hidden = false;
  return problems;
}

function render(state) {
  $("problem").hidden = true;
  const list = $("statements");
  list.textContent = "";
  const ran = new Map(state.ran.map((r) => [r.index, r]));
  state.statements.forEach((s, i) => {
    const li = document.createElement("li");
    li.value = s.line;
    li.textContent = s.text;
    li.className = i < state.pos ? "done" : "todo";
    if (i === state.pos) li.classList.add("current");
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
  if (document.activeElement !== $("editor")) $("editor").value = state.src;
  $("where").textContent = `step ${state.step} · ${state.pos}/${state.statements.length} statements`;
  const cp = $("checkpoint");
  cp.length = 1;
  state.checkpoints.forEach((c) => cp.add(new Option(c, c)));
  const ag = $("agent");
  const chosen = ag.value;
  ag.length = 1;
  state.agents.forEach((a, i) => ag.add(new Option(a, String(i))));
  ag.value = chosen;
  const last = state.ran.filter((r) => r.lines.length).slice(-3);
  $("narration").textContent = last.map((r) => r.lines.join("\n")).join("\n");
  if (state.problem) showProblem({ problem: state.problem });
  figure();
}

function figureUrl(format) {
  const p = new URLSearchParams({ format });
  if ($("agent").value) p.set("agent", $("agent").value);
  if ($("card").value.trim()) p.set("for", $("card").value.trim());
  return `/api/sessions/${session}/figure?${p}`;
}

async function figure() {
  if (!session) return;
  const url = figureUrl("svg");
  $("svg").href = url;
  $("dot").href = figureUrl("dot");
  $("png").href = figureUrl("png");
  const r = await fetch(url);
  if (r.ok) {
    $("figure").src = URL.createObjectURL(await r.blob());
    $("figure").hidden = false;
    $("figure-error").hidden = true;
  } else {
    const e = await r.json().catch(() => ({ error: r.statusText }));
    $("figure").hidden = true;
    $("figure-error").textContent = e.error;
    $("figure-error").hidden = false;
  }
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
    const r = await api("POST", "/api/sessions", body);
    session = r.id;
    render(r.state);
  } catch (e) {
    showProblem(e);
  }
}

$("load").onclick = () => load({ path: $("scenario").value });
$("step").onclick = () => act("POST", "/step");
$("back").onclick = () => act("POST", "/back", { n: 1 });
$("checkpoint").onchange = () => $("checkpoint").value && act("POST", "/goto", { name: $("checkpoint").value });
$("rerun").onclick = () => (session ? act("PUT", "", { src: $("editor").value }) : load({ src: $("editor").value }));
$("agent").onchange = figure;
$("card").onchange = figure;
$("ask").onsubmit = async (ev) => {
  ev.preventDefault();
  try {
    const r = await api("POST", `/api/sessions/${session}/query`, { q: $("q").value });
    $("answer").textContent = r.lines.join("\n");
  } catch (e) {
    $("answer").textContent = e.error;
  }
};

(async () => {
  const list = await api("GET", "/api/scenarios");
  list.forEach((s) => $("scenario").add(new Option(s, s)));
  const params = new URLSearchParams(location.search);
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
    $("scenario").value = want;
    load({ path: want });
  }
})();

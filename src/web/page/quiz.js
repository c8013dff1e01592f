// The lecture view's quiz mode (src/web/quiz.rs). With "Quiz mode" on,
// the answers printed beside the statements, the narration, the query
// box's answer and the figure's shading are hidden; the questions of the
// current step are listed with a box each. An answer is checked by the
// server against the model; then the explanation is shown and the worlds
// that decide the question are highlighted in the figure. Everything
// stays on the local server. It reads app.js's `session` and `$`.
"use strict";

(() => {
  const style = document.createElement("style");
  style.textContent = `
body.quiz #statements .out, body.quiz #narration, body.quiz #answer { visibility: hidden; }
body.quiz #figure-box g.hl rect, body.quiz #figure-box g.hl polygon,
body.quiz #figure-box g.hl ellipse { fill: none; }
#figure-box g.decide rect, #figure-box g.decide polygon, #figure-box g.decide ellipse {
  fill: #9fd9a8; stroke: #1a6b2a; stroke-width: 3; }
#quiz-questions li { margin: 0.4em 0; }
#quiz-questions .verdict { display: block; white-space: pre-wrap; font-family: monospace; }
#quiz-questions .right { color: #1a6b2a; font-weight: bold; }
#quiz-questions .wrong { color: #b00; font-weight: bold; }
`;
  document.head.appendChild(style);

  const panel = document.createElement("section");
  panel.id = "quiz";
  const title = document.createElement("h2");
  title.textContent = "Quiz";
  const label = document.createElement("label");
  const mode = document.createElement("input");
  mode.type = "checkbox";
  mode.id = "quiz-mode";
  label.append(mode, " Quiz mode: hide the answers until they are given");
  const list = document.createElement("ol");
  list.id = "quiz-questions";
  const score = document.createElement("p");
  score.id = "quiz-score";
  panel.append(title, label, score, list);
  // The quiz view (`?view=quiz`, a student's): the mode is always on, and
  // the questions stand beside the figure.
  const student = document.body.classList.contains("view-quiz");
  if (student) {
    label.hidden = true;
    mode.checked = true;
    document.body.classList.add("quiz");
    title.textContent = "Questions";
    document.getElementById("left").prepend(panel);
  } else {
    document.getElementById("right").appendChild(panel);
  }

  function showScore(s) {
    if (!s) return;
    score.textContent = `Score: ${s.right} right of ${s.answered} answered`;
    score.dataset.right = String(s.right);
    score.dataset.answered = String(s.answered);
  }

  const hints = { "yes-no": "y or n", number: "a number", players: "players, or nobody" };
  // The worlds highlighted for the last answer, kept across redraws.
  let deciding = [];

  function mark() {
    const box = document.getElementById("figure-box");
    box.querySelectorAll("g.decide").forEach((g) => g.classList.remove("decide"));
    const lit = new Set(deciding);
    box.querySelectorAll("g").forEach((g) => {
      const w = worldOf(g);
      if (w !== null && lit.has(w)) g.classList.add("decide");
    });
    box.dataset.deciding = deciding.join(",");
  }

  async function answer(q, input, go, out) {
    out.textContent = "";
    try {
      const r = await api("POST", `/api/sessions/${session}/quiz/${q.index}`, { given: input.value });
      if (r.again) {
        // A first wrong try: a hint, and the question stays open.
        const head = document.createElement("span");
        head.className = "wrong";
        head.textContent = `not ${r.given}: try again`;
        const rest = document.createElement("span");
        rest.className = "verdict hint";
        rest.textContent = `hint: ${r.hint}`;
        out.append(head, rest);
        out.dataset.right = "again";
        input.value = "";
        input.focus();
        return;
      }
      const head = document.createElement("span");
      head.className = r.right ? "right" : "wrong";
      head.textContent = r.right ? `right: ${r.expected}` : `wrong: you said ${r.given}`;
      const rest = document.createElement("span");
      rest.className = "verdict";
      rest.textContent = r.lines.join("\n");
      out.append(head, rest);
      out.dataset.right = String(r.right);
      input.disabled = true;
      go.disabled = true;
      deciding = r.worlds;
      mark();
      showScore(r.score);
    } catch (e) {
      out.textContent = e.error || String(e);
    }
  }

  async function refresh() {
    deciding = [];
    list.textContent = "";
    if (typeof lastState !== "undefined" && lastState) showScore(lastState.score);
    if (!session || !mode.checked) return;
    let r;
    try {
      r = await api("GET", `/api/sessions/${session}/quiz`);
    } catch (e) {
      return;
    }
    r.questions.forEach((q) => {
      const li = document.createElement("li");
      li.dataset.index = String(q.index);
      const text = document.createElement("span");
      text.textContent = `${q.text} `;
      const form = document.createElement("form");
      form.style.display = "inline";
      const input = document.createElement("input");
      input.size = 12;
      input.placeholder = hints[q.sort] || "";
      const go = document.createElement("button");
      go.textContent = "Answer";
      const out = document.createElement("span");
      out.className = "result";
      form.append(input, go);
      form.onsubmit = (ev) => {
        ev.preventDefault();
        answer(q, input, go, out);
      };
      li.append(text, form, out);
      list.appendChild(li);
    });
    if (!r.questions.length) {
      const li = document.createElement("li");
      li.textContent = "no question at this step: step on";
      list.appendChild(li);
    }
  }

  mode.onchange = () => {
    document.body.classList.toggle("quiz", mode.checked);
    const agent = document.getElementById("agent");
    agent.disabled = mode.checked;
    refresh();
  };
  // A new step redraws the statements; a new figure drops the marks.
  new MutationObserver(() => refresh()).observe(document.getElementById("statements"), {
    childList: true,
  });
  new MutationObserver(() => mark()).observe(document.getElementById("figure-box"), {
    childList: true,
  });
})();

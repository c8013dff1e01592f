// Prints the table of docs/experiments.md ("The report's code") from the
// records the driver wrote beside this file (fixed.csv, rotating.csv,
// temp-agent2.csv). Needs no checkout: `node table.mjs [FOLDER]`.

import { readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const folder = process.argv[2] ?? fileURLToPath(new URL(".", import.meta.url))
const NAMES = ["random", "most-cards", "first-order", "second-order"]
const REPORT = {
    "random": [1059, 883, 663],
    "most-cards": [1425, 1526, 1090],
    "first-order": [7516, 4372, 4384],
    "second-order": [7591, 4965, 4526],
}

function read(setting) {
    const lines = readFileSync(join(folder, `${setting}.csv`), "utf8").trim().split("\n")
    if (lines[0] !== "run,game,seats,books,tally,asks,hits") throw new Error(`${setting}.csv: unexpected header`)
    return lines.slice(1).map((line) => {
        const [run, game, seats, books, tally, asks, hits] = line.split(",")
        const list = (s) => s.split(";")
        return {
            run: Number(run),
            game: Number(game),
            seats: list(seats),
            books: list(books).map(Number),
            tally,
            asks: list(asks).map(Number),
            hits: list(hits).map(Number),
        }
    })
}

// Wins per run by the program's tally (the winner's seat).
function tallies(rows) {
    const wins = Object.fromEntries(NAMES.map((n) => [n, [0, 0, 0, 0]]))
    for (const r of rows) {
        if (r.tally === "aborted") continue
        wins[r.seats[Number(r.tally) - 1]][r.run - 1] += 1
    }
    return wins
}

// Games won alone (the most books, not shared), of the games played.
function sole(rows) {
    const won = Object.fromEntries(NAMES.map((n) => [n, 0]))
    const played = Object.fromEntries(NAMES.map((n) => [n, 0]))
    for (const r of rows) {
        const best = Math.max(...r.books)
        const at = r.books.flatMap((b, i) => (b === best ? [i] : []))
        r.seats.forEach((s) => (played[s] += 1))
        if (at.length === 1) won[r.seats[at[0]]] += 1
    }
    return Object.fromEntries(NAMES.map((n) => [n, [won[n], played[n]]]))
}

// Asks that found the rank, of all asks, per strategy.
function hitRate(rows) {
    const a = Object.fromEntries(NAMES.map((n) => [n, [0, 0]]))
    for (const r of rows) {
        r.seats.forEach((s, i) => {
            a[s][0] += r.hits[i]
            a[s][1] += r.asks[i]
        })
    }
    return a
}

const pct = (num, den) => `${((100 * num) / den).toFixed(1)}%`
const fixed = read("fixed")
const rotating = read("rotating")
const variant = read("temp-agent2")
const t = tallies(fixed)
const rot = sole(rotating)
const tmp = sole(variant)
const runsOf = (name) => [0, 1, 2, 3].filter((run) => t[name][run] + fixed.filter((r) => r.run === run + 1 && r.seats.includes(name)).length > 0)

const row = (label, cells) => `| ${label} | ${cells.join(" | ")} |`
console.log(row("setting", ["random", "most cards", "first-order", "second-order"]))
console.log("|---|---|---|---|---|")
console.log(row("the report's Table 2 (wins per run 1-4)", NAMES.map((n) => REPORT[n].join(", "))))
console.log(row("their code, fixed seats, their tally", NAMES.map((n) => runsOf(n).map((run) => t[n][run]).join(", "))))
console.log(row("their code, seats rotating, sole wins (share of games)", NAMES.map((n) => pct(...rot[n]))))
console.log(row("the same with `temp_agent2` on lines 65 and 68", NAMES.map((n) => pct(...tmp[n]))))
console.log()
const hit = hitRate(rotating)
console.log(`asks that found the rank, seats rotating: ${NAMES.map((n) => `${n} ${pct(...hit[n])}`).join(", ")}`)
// How far each fixed-seat count is from the report's, in standard errors
// of a count of 10,000 games at the report's rate.
const games = fixed.filter((r) => r.run === 1).length
const z = NAMES.flatMap((n) =>
    runsOf(n).map((run, k) => {
        const p = REPORT[n][k] / 10000
        const se = Math.sqrt(games * p * (1 - p))
        return `${n} run ${run + 1}: ${((t[n][run] - games * p) / se).toFixed(1)}`
    }),
)
console.log(`fixed seats against the report, in standard errors: ${z.join(", ")}`)
console.log(`aborted games (the program's 100-round stop): ${[fixed, rotating, variant].map((rs) => rs.filter((r) => r.tally === "aborted").length).join(", ")}`)

// Plays the Go Fish report's program (report 002; its repository at commit
// 7dcfcd1) with a seeded random generator and writes one CSV row a game.
// No code of the program is copied here: its modules are loaded from the
// checkout given on the command line. See README.md beside this file.
//
//   node driver.mjs CHECKOUT SETTING GAMES SEED OUT.csv
//
// CHECKOUT  a checkout of the report's repository at 7dcfcd1 (the folder
//           that holds docs/modules/); its modules' SHA-256 are checked
// SETTING   fixed | rotating | temp-agent2
// GAMES     games a run (the report's four runs are played)
// SEED      an integer; game g of run r gets its own seed from it

import { createHash } from "node:crypto"
import { readFileSync, writeFileSync } from "node:fs"
import { register } from "node:module"
import { join, resolve } from "node:path"
import { pathToFileURL } from "node:url"

// The modules at 7dcfcd1, so that a run is known to be of that commit.
const MODULES = {
    "card.js": "f3e1164d74e1e9801ef8a6615887a71c372492bc017bcbea959c6ee63d506772",
    "deck.js": "92eb1b7f3dced0e33a13ac116c86df74b762b665d3c2162433e63033ea023fc2",
    "game.js": "53e88ee17aaf16c7f0d9e26d49c8e88d46575b7d12ca7af1a2a0ff3225da89f0",
    "hand.js": "40a176ba5d1f1f259cdbddd48046e5409b44b54be3b9dde26b5092a929a96cc2",
    "knowledge.js": "b8cf634d95905553c73d734f84888a5169930fdde44f31759b5cb11db7864f69",
    "player.js": "e416eac171429bc545af05fc15866a93aa9b10f3880b353b43cdb63b85046b7e",
    "round.js": "9bfa962a027203e8dcc92e7134d7f66e647fd22bf8f0577bbb9216277ff953c1",
    "strat.js": "f8343c70c7ef0e7a9a0616b03a571fa18292f4ab73efdcabf4567f6e41a3aae5",
    "utils.js": "5f27d457060b8f551e2675be920404daf6e96aecc0eb4d9f1b847694089d4e63",
}

// The report's strategies, in its order, by the program's names, and the
// report's four runs (Table 2): each leaves one strategy out.
const STRATEGIES = [
    ["random", "random"],
    ["most-cards", "high card"],
    ["first-order", "first order"],
    ["second-order", "second order"],
]
const RUNS = [
    [0, 1, 2],
    [0, 1, 3],
    [0, 2, 3],
    [1, 2, 3],
]
const SETTINGS = ["fixed", "rotating", "temp-agent2"]

function fail(message) {
    process.stderr.write(`driver: ${message}\n`)
    process.exit(2)
}

const [checkoutArg, setting, gamesArg, seedArg, out] = process.argv.slice(2)
if (!out) fail("usage: node driver.mjs CHECKOUT SETTING GAMES SEED OUT.csv")
if (!SETTINGS.includes(setting)) fail(`SETTING is one of ${SETTINGS.join(", ")}, not \`${setting}\``)
const games = Number(gamesArg)
if (!Number.isInteger(games) || games < 1) fail(`GAMES is a positive integer, not \`${gamesArg}\``)
if (!/^[0-9]+$/.test(seedArg)) fail(`SEED is a non-negative integer, not \`${seedArg}\``)
const seed = BigInt(seedArg) & 0xffffffffffffffffn

const modules = join(resolve(checkoutArg), "docs", "modules")
for (const [file, want] of Object.entries(MODULES)) {
    let text
    try {
        text = readFileSync(join(modules, file))
    } catch (e) {
        fail(`cannot read ${join(modules, file)}: ${e.message}`)
    }
    const got = createHash("sha256").update(text).digest("hex")
    if (got !== want) fail(`${join(modules, file)} is not the file at commit 7dcfcd1 (SHA-256 ${got})`)
}

// `temp-agent2`: lines 65 and 68 of knowledge.js test `temp_agent1 > 0`
// before comparing the second opponent's count; the variant tests
// `temp_agent2 > 0` there. The source is patched as Node loads it (a load
// hook), never written anywhere.
if (setting === "temp-agent2") {
    const hook = `
const WRONG = "temp_agent1 > 0 && temp_agent2 + my_amount"
const RIGHT = "temp_agent2 > 0 && temp_agent2 + my_amount"
export async function load(url, context, next) {
    const loaded = await next(url, context)
    if (!url.endsWith("/docs/modules/knowledge.js")) return loaded
    const text = String(loaded.source)
    if (text.split(WRONG).length !== 3) throw new Error("knowledge.js: the two lines to patch are not there")
    return { ...loaded, source: text.split(WRONG).join(RIGHT) }
}`
    register("data:text/javascript," + encodeURIComponent(hook))
}

// Math.random, replaced before the program is loaded: sfc32 seeded per game.
let state = [0, 0, 0, 0]
function sfc32() {
    let [a, b, c, d] = state
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    state = [a, b, c, d]
    return (t >>> 0) / 4294967296
}
Math.random = sfc32

const MASK = 0xffffffffffffffffn
function splitmix(x) {
    let z = (x + 0x9e3779b97f4a7c15n) & MASK
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK
    return z ^ (z >> 31n)
}
// Game `index` (run * games + game): its own stream, the same in every setting.
function seedGame(index) {
    let x = splitmix(seed ^ BigInt(index))
    const words = []
    for (let i = 0; i < 4; i++) {
        x = splitmix(x)
        words.push(Number(x & 0xffffffffn) | 0)
    }
    state = words
    for (let i = 0; i < 12; i++) sfc32()
}

const { Game } = await import(pathToFileURL(join(modules, "game.js")).href)
const { AI } = await import(pathToFileURL(join(modules, "player.js")).href)

// Every ask an AI makes, and whether the asked player held the rank then.
let asks = [0, 0, 0]
let hits = [0, 0, 0]
const choose = AI.prototype.choose_card_value
AI.prototype.choose_card_value = function (maxRank, asked) {
    const value = choose.call(this, maxRank, asked)
    const seat = Number(this.number) - 1
    asks[seat] += 1
    if (asked.has_specific_cards(value)) hits[seat] += 1
    return value
}

const quiet = console.log
const rows = ["run,game,seats,books,tally,asks,hits"]
for (let run = 0; run < RUNS.length; run++) {
    for (let game = 0; game < games; game++) {
        seedGame(run * games + game)
        const order = RUNS[run].slice()
        if (setting !== "fixed") {
            for (let k = 0; k < game % 3; k++) order.push(order.shift())
        }
        asks = [0, 0, 0]
        hits = [0, 0, 0]
        // The program's own game: 13 ranks, three AI seats as the report's
        // §5.1 plays it (the web page seats a person in the first).
        console.log = () => {}
        let tally = ""
        let g
        try {
            g = new Game(13)
            g.agents = order.map((s, i) => new AI(String(i + 1), STRATEGIES[s][1]))
            g.initialize()
            g.start_game_loop()
            tally = String(g.get_winner())
        } catch (e) {
            // The program stops a game at its 100th round (`print(1/0)`).
            tally = "aborted"
        } finally {
            console.log = quiet
        }
        const seats = order.map((s) => STRATEGIES[s][0]).join(";")
        const books = g.agents.map((a) => a.books).join(";")
        rows.push([run + 1, game, seats, books, tally, asks.join(";"), hits.join(";")].join(","))
    }
}
writeFileSync(out, rows.join("\n") + "\n")
process.stderr.write(`driver: ${RUNS.length * games} games (${setting}, seed ${seedArg}) written to ${out}\n`)

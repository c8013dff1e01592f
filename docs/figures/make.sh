#!/usr/bin/env bash
# Regenerates the figures in this folder from the scenarios (never edit them by hand):
#   bash docs/figures/make.sh
# With graphviz installed the SVGs are drawn by `dot`; without it, by dealer's
# built-in layout (set DEALER_RENDERER=builtin to force it).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --quiet
dealer=target/debug/dealer
out=docs/figures

gofish=scenarios/gofish/simplified.deal
for fig in "1a:initial" "1b:turn 1" "1c:turn 2" "1d:turn 3" "1e:turn 4"; do
  "$dealer" export "$gofish" --at "${fig#*:}" -o "$out/gofish-${fig%%:*}.svg"
done

kemps=scenarios/kemps/sixes-small.deal
for card in 6S 6H 6D 6C; do
  "$dealer" export "$kemps" --at "round 1" --for "$card" -o "$out/kemps-round1-$card.svg"
  "$dealer" export "$kemps" --at "round 2" --for "$card" -o "$out/kemps-round2-$card.svg"
done

# The same figures by the built-in writer (no graphviz), and in the
# projector and print themes, for docs/figures.md.
DEALER_RENDERER=builtin "$dealer" export "$gofish" --at "turn 2" -o "$out/builtin-gofish-1c.svg"
DEALER_RENDERER=builtin "$dealer" export "$gofish" --at "initial" -o "$out/builtin-gofish-1a.svg"
DEALER_RENDERER=builtin "$dealer" export "$kemps" --at "round 1" --for 6S -o "$out/builtin-kemps-round1-6S.svg"
DEALER_RENDERER=builtin "$dealer" export scenarios/classics/explicit-model.deal -o "$out/builtin-explicit-model.svg"
"$dealer" export "$gofish" --at "initial" --complete -o "$out/gofish-1a-complete.svg"
"$dealer" export "$gofish" --at "turn 2" --theme projector --hide stock -o "$out/gofish-1c-projector.svg"
"$dealer" export "$gofish" --at "turn 2" --theme print -o "$out/gofish-1c-print.svg"

# TikZ: a picture to paste into a slide, and the beamer example.
"$dealer" export "$gofish" --at "turn 2" -o "$out/gofish-1c.tex"
"$dealer" export "$gofish" --at "turn 2" --hide stock --for-slides -o "$out/gofish-1c-slide.tex"

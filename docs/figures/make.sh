#!/usr/bin/env bash
# Regenerates the figures in this folder from the scenarios (never edit them by hand):
#   bash docs/figures/make.sh
# The gofish-* and kemps-* SVGs are drawn by graphviz's `dot`; the builtin-*,
# lecturer-* and theme SVGs by dealer's built-in layout (the default).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --quiet
dealer=target/debug/dealer
out=docs/figures

gofish=scenarios/gofish/simplified.deal
for fig in "1a:initial" "1b:turn 1" "1c:turn 2" "1d:turn 3" "1e:turn 4"; do
  DEALER_RENDERER=graphviz "$dealer" export "$gofish" --at "${fig#*:}" -o "$out/gofish-${fig%%:*}.svg"
done

kemps=scenarios/kemps/sixes-small.deal
for card in 6S 6H 6D 6C; do
  DEALER_RENDERER=graphviz "$dealer" export "$kemps" --at "round 1" --for "$card" -o "$out/kemps-round1-$card.svg"
  DEALER_RENDERER=graphviz "$dealer" export "$kemps" --at "round 2" --for "$card" -o "$out/kemps-round2-$card.svg"
done

# The report's Figures 1a-1e as a lecturer draws them (built-in layout,
# the stock's row hidden: the three hands stacked), for docs/figures.md.
for fig in "1a:initial" "1b:turn 1" "1c:turn 2" "1d:turn 3" "1e:turn 4"; do
  DEALER_RENDERER=builtin "$dealer" export "$gofish" --at "${fig#*:}" --hide stock \
    -o "$out/lecturer-gofish-${fig%%:*}.svg"
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

#!/bin/sh
# dealer beside SMCDEL on the classic benchmarks, in one run, the two
# tools alternated by hyperfine (wall time, mean of the runs) and their
# peak memory measured by /usr/bin/time.
#
#   scenarios/bench/peers.sh PEERS [SIZES...]
#
# PEERS is a folder with the SMCDEL benchmark programs built from the
# peers' sources (muddy-sym, dc-ring2, russian; see docs/engines.md).
# Each list of sizes can be set (MUDDY, MUDDY_VARS, DC; a space skips
# one): `MUDDY=" " DC=" " RUNS=5` runs the variables and Russian cards.
# The scenarios are written by `dealer gen` into a scratch folder, so the
# large ones (muddy children with 500 children, a ring of 200 diners) are
# never committed. Every answer is compared: dealer's expectations must
# hold, and its 102 safe Russian-cards announcements must be SMCDEL's.
set -eu
PEERS=${1:?give the folder of the SMCDEL benchmark programs}
shift
DEALER=${DEALER:-target/release/dealer}
OUT=$(mktemp -d)
RUNS=${RUNS:-3}

side_by_side() { # name dealer-scenario peer-command [dealer options]
    echo "== $1"
    hyperfine -N --runs "$RUNS" --export-markdown "$OUT/$1.md" \
        -n dealer "$DEALER run --engine symbolic ${4:-} $2" -n SMCDEL "$3" >/dev/null
    cat "$OUT/$1.md"
    # shellcheck disable=SC2086
    /usr/bin/time -f "dealer peak %M KiB" "$DEALER" run --engine symbolic ${4:-} "$2" >/dev/null
    # shellcheck disable=SC2086
    /usr/bin/time -f "SMCDEL peak %M KiB" $3 >/dev/null
}

for n in ${MUDDY:-10 20 40 60 100 200 400 500}; do
    "$DEALER" gen muddy "$n" >"$OUT/muddy-$n.deal"
    side_by_side "muddy-$n" "$OUT/muddy-$n.deal" "$PEERS/muddy-sym $n"
done
# The same puzzle as variables (one 0..1 variable a child, SMCDEL's own
# encoding); the forehead piles above have one BDD variable a child too
# (a forehead's C is its rest: one card less the M).
# `--max-worlds 1` times the structure alone, as SMCDEL builds it: within
# the budget dealer would also list every assignment (for world names).
for n in ${MUDDY_VARS:-10 20 40 60 100 200 250}; do
    "$DEALER" gen muddy-vars "$n" >"$OUT/muddy-vars-$n.deal"
    side_by_side "muddy-vars-$n" "$OUT/muddy-vars-$n.deal" "$PEERS/muddy-sym $n" "--max-worlds 1"
done
for n in ${DC:-16 40 80 120 200}; do
    "$DEALER" gen dc "$n" >"$OUT/dc-$n.deal"
    side_by_side "dc-$n" "$OUT/dc-$n.deal" "$PEERS/dc-ring2 $n 1 interleave"
done
"$DEALER" gen russian >"$OUT/russian.deal"
side_by_side russian "$OUT/russian.deal" "$PEERS/russian safe"
"$DEALER" run "$OUT/russian.deal" | grep -c '=> true$' >"$OUT/ours"
"$PEERS/russian" safe | wc -l >"$OUT/theirs"
if cmp -s "$OUT/ours" "$OUT/theirs"; then
    echo "russian: both find $(cat "$OUT/ours") safe announcements"
else
    echo "russian: dealer finds $(cat "$OUT/ours"), SMCDEL $(cat "$OUT/theirs")"
    exit 1
fi
rm -rf "$OUT"

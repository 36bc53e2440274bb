# shellcheck shell=bash
# Sourced by the bench scripts that run for long on a cluster of their own and keep a report folder (neighbours.sh,
# soak.sh), from the repository's root once their options are read, with the script's name as its argument:
#   OUT              the report folder (--out, default bench/reports/<date>-<name>), made with runs/ in it; from then
#                    on its absolute path
#   log <words>      "<name>: <time> <words>" on stderr
#   mvn_build <args> mvn quietly, offline first (the local repository usually has everything), online if that fails
LONG_RUN_NAME="$1"
OUT="${OUT:-bench/reports/$(date +%Y-%m-%d-%H%M)-$LONG_RUN_NAME}"
mkdir -p "$OUT/runs"
OUT="$(cd "$OUT" && pwd)"
log() { echo "$LONG_RUN_NAME: $(date +%H:%M:%S) $*" >&2; }
mvn_build() { mvn -B -q -o "$@" || mvn -B -q "$@"; }

#!/usr/bin/env bash
# Draws the benchmark's pictures: one SVG per cell (workload x driver latency
# x QPS) of each results directory scripts/bench.sh wrote, with ours, upstream,
# mixed and the floor (the pod stack: csi-sidecars, ours4, upstream4) side by
# side, bar by bar, each bar labelled with its
# figure. Figures are the medians over the repetitions in results.csv, taken
# and printed (%.4g) as bench-report takes and prints them, so a bar's label
# is the number in that run's report.md. Needs gnuplot (Debian: gnuplot-nox);
# not part of CI or scripts/test.sh.
#
#   scripts/bench-plots.sh [--out=DIR] [RESULTS_DIR...]
#       RESULTS_DIR: a directory holding results.csv (and run-info.txt, whose
#       date and commit go into each title). Default: every directory under
#       bench/current/ (the runs bench/RESULTS.md's current tables quote);
#       default --out: bench/plots. A later directory's cell replaces an
#       earlier one's of the same name.
#   scripts/bench-plots.sh --quick [--out=DIR]
#       runs the smallest benchmark that redraws one picture (attacher backlog,
#       N=200, driver latency 0 ms, QPS 1000, 1 repetition, ours/upstream/floor;
#       about 30 s once the build and the peers are there) into a fresh
#       bench/results/<time>-quick/ and draws it into --out (default: there).
#
# Panels, each only with the figures the cell has: times (s), latencies (ms),
# CPU seconds, peak and anonymous RSS (MB), API writes and CSI calls per
# object, and all API requests. The floor runs inside the load generator, so
# it has no CPU or RSS bars.
#
# A results directory with a latencies.csv (the stream workloads' per-object
# latencies, bench/csv_sink.h) also gets <cell>-cdf.svg per stream cell: the
# empirical CDF of each contender's latencies (log x when they span a factor
# of 3 or more) and its tail (log y), one row per series (snap-readiness has
# two), repetitions pooled.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

OUT=
QUICK=
DIRS=()
for arg in "$@"; do
  case $arg in
    --out=*) OUT=${arg#*=} ;;
    --quick) QUICK=1 ;;
    -h|--help) sed -n '2,32p' "$0"; exit 0 ;;
    -*) echo "bench-plots: unknown argument $arg (see --help)" >&2; exit 2 ;;
    *) DIRS+=("$arg") ;;
  esac
done

command -v gnuplot >/dev/null || {
  echo "bench-plots: gnuplot not found (Debian: apt-get install gnuplot-nox)" >&2; exit 1; }

if [[ -n $QUICK ]]; then
  results=bench/results/$(date -u +%Y%m%dT%H%M%SZ)-quick
  scripts/bench.sh --stack=attacher --workloads=backlog --qps=1000 --latencies=0 --reps=1 \
    --backlog-n=200 --contenders=ours,upstream,floor --results="$results"
  DIRS=("$results")
  OUT=${OUT:-$results}
fi
if [[ ${#DIRS[@]} -eq 0 ]]; then
  for d in bench/current/*/; do DIRS+=("${d%/}"); done
fi
OUT=${OUT:-bench/plots}
mkdir -p "$OUT"
TMP=$(mktemp -d)
trap '[[ -n ${BENCH_PLOTS_KEEP:-} ]] || rm -rf "$TMP"' EXIT

# One line per cell, contender and metric: cell-name, contender, metric,
# median (%.4g), title. Medians as bench/percentile.cpp's Median.
medians() {  # results.csv run-info.txt
  local date commit stack
  date=$(sed -n 's/^date: //p' "$2" 2>/dev/null || true)
  commit=$(sed -n 's/^commit: //p' "$2" 2>/dev/null || true)
  stack=$(sed -n "s/^stack: \([a-z]*\),.*/\1/p" "$2" 2>/dev/null || true)
  case $stack in
    attacher) stack="csi-attacher " ;;
    snapshot) stack="snapshot-controller + csi-snapshotter " ;;
    resizer) stack="csi-resizer " ;;
    pod) stack="one driver's controller Pod " ;;
  esac
  awk -F, -v date="${date:-?}" -v commit="${commit:-?}" -v stack="$stack" '
    NF >= 9 {
      cell = $1 "," $2 "," $3 "," $4 "," $5 "," $6
      metric = $9; for (i = 10; i < NF; ++i) metric = metric "," $i
      key = cell SUBSEP $7 SUBSEP metric
      if (!(key in count)) order[++keys] = key
      vals[key, ++count[key]] = $NF
      reps[cell SUBSEP $7] = ($8 > reps[cell SUBSEP $7]) ? $8 : reps[cell SUBSEP $7]
    }
    END {
      for (k = 1; k <= keys; ++k) {
        key = order[k]; n = count[key]
        for (i = 1; i <= n; ++i) v[i] = vals[key, i] + 0
        for (i = 2; i <= n; ++i) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; --j) v[j + 1] = v[j]; v[j + 1] = x }
        med = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
        split(key, parts, SUBSEP); split(parts[1], c, ",")
        name = c[1] "-" c[2] "ms-qps" c[3]
        title = sprintf("%s%s, driver latency %s ms, QPS %s/%s, %s workers%s: median of %d repetition(s); %s, commit %s",
                        stack, c[1], c[2], c[3], c[4], c[5], (c[6] > 0 ? ", N=" c[6] : ""),
                        reps[parts[1] SUBSEP parts[2]], date, commit)
        printf "%s\t%s\t%s\t%.4g\t%s\n", name, parts[2], parts[3], med, title
      }
    }' "$1"
}

for d in "${DIRS[@]}"; do
  [[ -f $d/results.csv ]] || { echo "bench-plots: no $d/results.csv" >&2; exit 1; }
  medians "$d/results.csv" "$d/run-info.txt"
done >"$TMP/all.tsv"

# Panel of a metric (empty: not drawn).
panel_of() {
  case $1 in
    # The pod stack's per-process and per-resource rows: its totals are drawn.
    attacher_*|provisioner_*|resizer_*|snapshotter_*|sidecars_*|"watches "*) ;;
    cpu_s|*_cpu_s) echo 3cpu ;;
    peak_rss_mb|rss_anon_mb|*_peak_rss_mb|*_rss_anon_mb) echo 4rss ;;
    *_p50_ms|*_p99_ms) echo 2latency ;;
    *_per_s) ;;
    *_s) echo 1time ;;
    api_writes_per_object|csi_ops_per_object) echo 5perobject ;;
    api_requests) echo 6requests ;;
    all_tcp_connections|watches_*) echo 7watches ;;
  esac
}
declare -A PANEL_TITLE=(
  [1time]="time (s)" [2latency]="latency (ms)" [3cpu]="CPU (s)"
  [4rss]="resident memory (MB)" [5perobject]="per object" [6requests]="API requests"
  [7watches]="API connections, watches")
# The pod stack's contenders (bench/pod_stack.h) after the others.
CONTENDERS=(ours mixed upstream floor csi-sidecars ours4 upstream4)
declare -A COLOR=([ours]="#1b7837" [mixed]="#7fbf7b" [upstream]="#762a83" [floor]="#999999"
  [csi-sidecars]="#1b7837" [ours4]="#7fbf7b" [upstream4]="#762a83")

drawn=0
for cell in $(cut -f1 "$TMP/all.tsv" | awk '!seen[$0]++'); do
  # The last directory's rows for this cell win.
  awk -F'\t' -v cell="$cell" '$1 == cell' "$TMP/all.tsv" >"$TMP/cell.tsv"
  title=$(tail -n 1 "$TMP/cell.tsv" | cut -f5)
  present=()
  for c in "${CONTENDERS[@]}"; do
    awk -F"\t" -v c="$c" '$2 == c {found = 1} END {exit !found}' "$TMP/cell.tsv" && present+=("$c")
  done
  # One data file per panel: metric, then one column per contender present.
  rm -f "$TMP"/panel-*.dat
  while IFS= read -r metric; do
    p=$(panel_of "$metric")
    [[ -n $p ]] || continue
    label=$(sed -E "s/_(s|ms|mb)\$//; s/^controller_/ctrl /" <<<"$metric")
    line=${label//_/ }
    for c in "${present[@]}"; do
      v=$(awk -F'\t' -v c="$c" -v m="$metric" '$2 == c && $3 == m {v = $4} END {print (v == "" ? "-" : v)}' "$TMP/cell.tsv")
      line+=$'\t'$v
    done
    printf '%s\n' "$line" >>"$TMP/panel-$p.dat"
  done < <(cut -f3 "$TMP/cell.tsv" | awk '!seen[$0]++')
  panels=()
  for f in "$TMP"/panel-*.dat; do [[ -e $f ]] && panels+=("$f"); done
  [[ ${#panels[@]} -gt 0 ]] || continue

  n=${#present[@]}
  cols=3
  rows=$(( (${#panels[@]} + cols - 1) / cols ))
  {
    echo "set terminal svg size 1200,$((rows * 330 + 60)) dynamic font 'sans,11' background '#ffffff'"
    echo "set output '$OUT/$cell.svg'"
    echo "set datafile separator tab"
    echo "set datafile missing '-'"
    echo "set style fill solid 0.85 border -1"
    echo "set grid ytics lc rgb '#dddddd'"
    echo "set yrange [0:*]"
    echo "set offsets 0, 0, graph 0.22, 0"
    echo "set xtics nomirror scale 0 font 'sans,9'"
    echo "set ytics nomirror"
    echo "set border 3"
    echo "set key top left horizontal font 'sans,10'"
    echo "set multiplot layout $rows,$cols title \"${title//\"/}\" font 'sans,12'"
    w=$(awk -v n="$n" 'BEGIN {printf "%.4f", 0.8 / n}')
    for f in "${panels[@]}"; do
      p=$(basename "$f" .dat); p=${p#panel-}
      echo "set title '${PANEL_TITLE[$p]}'"
      echo "set xrange [-0.6:$(($(wc -l <"$f") - 1)).6]"
      plot="plot '$f' using 0:(0):xtic(1) with points ps 0 notitle"
      for i in "${!present[@]}"; do
        c=${present[$i]}
        off=$(awk -v i="$i" -v n="$n" -v w="$w" 'BEGIN {printf "%.4f", (i - (n - 1) / 2) * w}')
        col=$((i + 2))
        plot+=", '$f' using (\$0+$off):$col:($w) with boxes lc rgb '${COLOR[$c]}' title '$c'"
        plot+=", '' using (\$0+$off):$col:(stringcolumn($col)) with labels offset 0,0.6 font 'sans,8' notitle"
      done
      echo "$plot"
    done
    echo "unset multiplot"
  } >"$TMP/plot.gp"
  gnuplot "$TMP/plot.gp" 2> >(grep -v 'warning: Skipping data file with no valid points' >&2)
  echo "$OUT/$cell.svg"
  drawn=$((drawn + 1))
done

# Latency distributions: one SVG per cell with a latencies.csv (the stream
# workloads' per-object latencies, bench/csv_sink.h), <cell>-cdf.svg, a row
# per series: on the left the empirical CDF (fraction of objects done within
# x ms; nearest-rank percentiles, as results.csv's p50/p99, are where it
# reaches 0.5 and 0.99), on the right its tail on a log scale (fraction of
# objects taking x ms or more), where the slowest few show. Repetitions are
# pooled: every object of every repetition is one step.
rm -rf "$TMP/lat"
mkdir -p "$TMP/lat"
for d in "${DIRS[@]}"; do
  [[ -f $d/latencies.csv ]] || continue
  date=$(sed -n 's/^date: //p' "$d/run-info.txt" 2>/dev/null | head -n 1 || true)
  commit=$(sed -n 's/^commit: //p' "$d/run-info.txt" 2>/dev/null | head -n 1 || true)
  stack=$(sed -n "s/^stack: \([a-z]*\),.*/\1/p" "$d/run-info.txt" 2>/dev/null | head -n 1 || true)
  case $stack in
    attacher) stack="csi-attacher " ;;
    snapshot) stack="snapshot-controller + csi-snapshotter " ;;
    resizer) stack="csi-resizer " ;;
    provisioner) stack="csi-provisioner " ;;
  esac
  # A later directory's cell replaces an earlier one's: its files are rewritten.
  awk -F, -v dir="$TMP/lat" -v date="${date:-?}" -v commit="${commit:-?}" -v stack="$stack" '
    NF == 11 {
      cell = $1 "-" $2 "ms-qps" $3
      if (!(cell in seen)) {
        seen[cell] = 1
        system("rm -rf \"" dir "/" cell "\"; mkdir -p \"" dir "/" cell "\"")
        printf "%s%s, driver latency %s ms, QPS %s/%s, %s workers: per-object latency; %s, commit %s\n",
               stack, $1, $2, $3, $4, $5, date, commit > (dir "/" cell "/title")
      }
      if (!((cell, $9) in listed)) { listed[cell, $9] = 1; print $9 > (dir "/" cell "/series") }
      print $11 > (dir "/" cell "/" $9 "." $7 ".raw")
      reps[cell SUBSEP $7] = ($8 > reps[cell SUBSEP $7]) ? $8 : reps[cell SUBSEP $7]
    }
    END { for (k in reps) { split(k, p, SUBSEP); print p[2], reps[k] > (dir "/" p[1] "/reps") } }
  ' "$d/latencies.csv"
done
for celldir in "$TMP"/lat/*/; do
  [[ -f $celldir/title ]] || continue
  cell=$(basename "$celldir")
  title=$(cat "$celldir/title")
  mapfile -t series <"$celldir/series"
  {
    # Rows of 470 px under a 40 px title; in each row the key gets a band
    # of its own under both panels, where it hides no curve.
    height=$((${#series[@]} * 470 + 40))
    echo "set terminal svg size 1200,$height dynamic font 'sans,11' background '#ffffff'"
    echo "set output '$OUT/$cell-cdf.svg'"
    echo "set grid xtics mxtics ytics lc rgb '#dddddd'"
    echo "set border 3"
    echo "set xtics nomirror"
    echo "set ytics nomirror"
    echo "set multiplot title \"${title//\"/}\" font 'sans,12'"
    row=0
    for s in "${series[@]}"; do
      # Screen fractions of this row: plot area top and bottom, key line.
      top=$(awk -v h="$height" -v r="$row" 'BEGIN {printf "%.4f", 1 - (40 + r * 470 + 30) / h}')
      bottom=$(awk -v h="$height" -v r="$row" 'BEGIN {printf "%.4f", 1 - (40 + (r + 1) * 470 - 140) / h}')
      keyline=$(awk -v h="$height" -v r="$row" 'BEGIN {printf "%.4f", 1 - (40 + (r + 1) * 470 - 48) / h}')
      row=$((row + 1))
      echo "set tmargin at screen $top; set bmargin at screen $bottom"
      echo "set key at screen 0.5, screen $keyline center center vertical Left reverse font 'sans,10' samplen 2"
      cdf="plot" tail="plot" min_frac=1
      for c in "${CONTENDERS[@]}"; do
        raw=$celldir/$s.$c.raw
        [[ -f $raw ]] || continue
        # x, fraction done by x (i/n), fraction taking x or more ((n-i+1)/n);
        # a first row at fraction 0 so the CDF's step starts on the axis.
        sort -g "$raw" | awk '{v[NR] = $1} END {
          printf "%s\t0\t1\n", v[1]
          for (i = 1; i <= NR; ++i) printf "%s\t%.6f\t%.6f\n", v[i], i / NR, (NR - i + 1) / NR }' \
          >"$celldir/$s.$c.dat"
        label=$(sort -g "$raw" | awk -v c="$c" -v reps="$(awk -v c="$c" '$1 == c {print $2}' "$celldir/reps")" '
          {v[NR] = $1}
          END {
            # Nearest rank, as bench/percentile.cpp.
            p50 = v[int(NR * 0.50 + 0.999999)]; p99 = v[int(NR * 0.99 + 0.999999)]
            printf "%s (%d%s): p50 %.4g, p99 %.4g, max %.4g ms",
                   c, NR, (reps > 1 ? " in " reps " reps" : ""), p50, p99, v[NR] }')
        frac=$(awk 'END {print 1 / (NR - 1)}' "$celldir/$s.$c.dat")
        min_frac=$(awk -v a="$min_frac" -v b="$frac" 'BEGIN {print (b < a ? b : a)}')
        [[ $cdf == plot ]] || { cdf+=","; tail+=","; }
        cdf+=" '$celldir/$s.$c.dat' using 1:2 with steps lw 2 lc rgb '${COLOR[$c]}' title '$label'"
        tail+=" '$celldir/$s.$c.dat' every ::1 using 1:3 with fsteps lw 2 lc rgb '${COLOR[$c]}' notitle"
      done
      # The same x range in both panels: whole decades on a log scale when
      # the latencies span a factor of 3 or more, else linear (a readiness cell's
      # create-to-ready times all lie within a few percent of 3 s).
      cat "$celldir/$s".*.raw | awk 'NR == 1 || $1 < lo {lo = $1} NR == 1 || $1 > hi {hi = $1}
        END {
          lo = (lo > 0 ? lo : 0.001)
          if (hi / lo >= 3) {
            print "set logscale x 10"
            print "set xlabel \"latency (ms, log scale)\""
            printf "set xrange [%g:%g]\n", 10 ^ int(log(lo) / log(10) - (lo < 1 ? 1 : 0)),
                   10 ^ (int(log(hi) / log(10)) + 1)
          } else {
            pad = (hi > lo ? (hi - lo) * 0.05 : hi * 0.05)
            print "unset logscale x"
            print "set xlabel \"latency (ms)\""
            printf "set xrange [%g:%g]\n", lo - pad, hi + pad
          }
        }'
      echo "unset logscale y"
      echo "set yrange [0:1]"
      echo "set ytics 0.1"
      echo "set ylabel 'fraction of objects done'"
      echo "set lmargin at screen 0.07; set rmargin at screen 0.48"
      echo "set title '$s: CDF (dashed: p50, p99)' noenhanced"
      echo "$cdf, 0.5 with lines dt 2 lc rgb '#888888' notitle, 0.99 with lines dt 2 lc rgb '#888888' notitle"
      echo "set logscale y 10"
      echo "set yrange [$(awk -v f="$min_frac" 'BEGIN {print f * 0.7}'):1]"
      echo "set ytics auto"
      echo "set ylabel 'fraction taking x or more (log scale)'"
      echo "set lmargin at screen 0.57; set rmargin at screen 0.98"
      echo "set title '$s: tail' noenhanced"
      echo "$tail"
    done
    echo "unset multiplot"
  } >"$TMP/cdf.gp"
  gnuplot "$TMP/cdf.gp"
  echo "$OUT/$cell-cdf.svg"
  drawn=$((drawn + 1))
done
[[ $drawn -gt 0 ]] || { echo "bench-plots: nothing to draw" >&2; exit 1; }

#!/usr/bin/env bash
# Where a running binary's resident memory is, and which library its resident
# file pages belong to (bench/history/notebook.md, the sidecar's RSS profile).
#
#   scripts/rss-profile.sh capture PID DIR     # save /proc/PID/{smaps,status}, the thread names
#                                              # and the present pages of the executable
#   scripts/rss-profile.sh report DIR [MAP]    # mappings by kind; with MAP, a GNU ld map of the
#                                              # same executable: its resident KiB by library
#
# A map comes from linking the executable again with -Wl,-Map=FILE appended
# to its link command (build/default: `ninja -t commands cmd/X/X | tail -1`);
# the extra flag changes nothing in the output. `capture` is cheap enough to
# repeat every second while a benchmark runs (keep the last one before the
# process exits). A page counts as resident when its page-table entry is
# present (bit 63 of /proc/PID/pagemap), which includes the neighbours the
# kernel's fault-around mapped along with a touched page.
set -euo pipefail

# mawk has no strtonum; addresses fit a double's 53 bits.
HEX='function hex(s,  i, n) { sub(/^0x/, "", s); n = 0
  for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
  return n }'

usage() { sed -n '2,17p' "$0" >&2; exit 2; }

capture() {
  local pid=$1 dir=$2 tmp
  tmp=$(mktemp -d "$dir.XXXX")
  cat "/proc/$pid/smaps" >"$tmp/smaps"
  cat "/proc/$pid/status" >"$tmp/status"
  cat "/proc/$pid"/task/*/comm | sort | uniq -c | sort -nr >"$tmp/threads"
  readlink "/proc/$pid/exe" >"$tmp/exe"
  # The executable's mappings: "start end offset" in hex, one line each.
  local exe
  exe=$(cat "$tmp/exe")
  awk -v exe="$exe" '$NF == exe { split($1, r, "-"); print r[1], r[2], $3 }' "$tmp/smaps" \
    >"$tmp/exe_maps"
  : >"$tmp/present"
  local start end offset first count
  while read -r start end offset; do
    first=$((16#$start / 4096))
    count=$(((16#$end - 16#$start) / 4096))
    # One 8-byte entry per page; print the page number (address / 4096) of each present one.
    dd if="/proc/$pid/pagemap" bs=8 skip="$first" count="$count" status=none |
      od -An -v -t x8 -w8 |
      awk -v first="$first" '{ if (substr($1, 1, 1) ~ /[89a-f]/) printf "%.0f\n", first + NR - 1 }' \
        >>"$tmp/present"
  done <"$tmp/exe_maps"
  rm -rf "$dir"
  mv "$tmp" "$dir"
}

# Mappings grouped: the executable's by permission, the heap, the main stack,
# thread stacks (an 8 MiB-ish anonymous mapping after its guard page) and
# glibc's per-thread malloc arenas (64 MiB-aligned anonymous reservations).
report_mappings() {
  local dir=$1
  echo "threads: $(awk '{ n += $1 } END { print n }' "$dir/threads")" \
    "($(awk '{ printf "%s%s x%d", (NR > 1 ? ", " : ""), $2, $1 }' "$dir/threads"))"
  grep -E '^(VmHWM|VmRSS|RssAnon|RssFile):' "$dir/status" | tr -s ' \t' ' '
  echo
  echo "| mapping | count | size KiB | Rss KiB | Anonymous KiB |"
  echo "| --- | ---: | ---: | ---: | ---: |"
  awk -v exe="$(cat "$dir/exe")" "$HEX"'
    /^[0-9a-f]+-[0-9a-f]+ / {
      split($1, r, "-"); size = (hex(r[2]) - hex(r[1])) / 1024
      path = NF >= 6 ? $6 : ""; perms = $2
      if (path == exe) kind = "executable " perms
      else if (path == "[heap]") kind = "[heap] (main arena)"
      else if (path == "[stack]") kind = "[stack] (main thread)"
      else if (path ~ /^\[/) kind = path
      else if (path != "") kind = "file " path
      else if (perms == "---p") kind = "anonymous, no access (guards, arena reserve)"
      else if (hex(r[1]) % (64 * 1024 * 1024) == 0) kind = "anonymous, 64 MiB-aligned (malloc arena)"
      else if (size >= 7000 && size <= 8200) kind = "anonymous, ~8 MiB (thread stack)"
      else kind = "anonymous, other"
      count[kind]++; total[kind] += size; next
    }
    $1 == "Rss:" { rss[kind] += $2 }
    $1 == "Anonymous:" { anon[kind] += $2 }
    END {
      for (k in count) printf "| %s | %d | %d | %d | %d |\n", k, count[k], total[k], rss[k], anon[k]
    }' "$dir/smaps" | sort -t'|' -k5 -nr
}

# Resident bytes of the executable by origin: each input section of the link
# map counts the bytes of it that lie on present pages. Origins: a static
# archive by name (libgrpc_unsecure.a), or the folder of one of our objects.
report_origins() {
  local dir=$1 map=$2 base
  # A PIE is loaded at the start of its offset-0 mapping; the map has
  # addresses from 0.
  base=$(awk '$3 == "00000000" { print $1; exit }' "$dir/exe_maps")
  if readelf -h "$(cat "$dir/exe")" | grep -q 'DYN'; then base=$((16#$base)); else base=0; fi
  echo
  echo "| origin | .text KiB | .rodata KiB | .data/.bss KiB | other KiB | resident KiB | linked KiB |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
  awk -v base="$base" "$HEX"'
    FNR == NR { present[$1] = 1; next }
    /^Linker script and memory map/ { inmap = 1; next }
    !inmap { next }
    # An input section: " .name 0xADDR 0xSIZE file", or the name alone with
    # the rest on the next line.
    /^ \.[^ ]+$/ { pending = $1; next }
    {
      if (pending != "" && $1 ~ /^0x/ && NF >= 3) { name = pending; addr = $1; size = $2; file = $3 }
      else if ($0 ~ /^ \./ && NF >= 4 && $2 ~ /^0x/) { name = $1; addr = $2; size = $3; file = $4 }
      else { pending = ""; next }
      pending = ""
      if (name ~ /^\.(debug|comment|note\.GNU-stack|gnu_debuglink)/) next
      a = hex(addr) + base; n = hex(size)
      if (n == 0 || a == base) next
      origin = file
      if (name ~ /^\.rel/) origin = "relocations (.rela.dyn, .relr.dyn)"
      else if (match(file, /lib[^\/]*\.a\(/)) origin = substr(file, RSTART, RLENGTH - 1)
      else if (match(file, /CMakeFiles\/[^\/]*\.dir/)) origin = substr(file, RSTART + 11, RLENGTH - 15)
      else if (file ~ /csi\.(grpc\.)?pb\.cc/) origin = "csi.pb (generated)"
      else sub(/.*\//, "", origin)
      cls = name ~ /^\.text/ ? "text" : name ~ /^\.rodata/ ? "rodata" : \
            name ~ /^\.(data|bss|tbss|tdata)/ ? "data" : "other"
      resident = 0
      for (page = int(a / 4096); page * 4096 < a + n; page++) {
        if (!(sprintf("%.0f", page) in present)) continue
        p = page * 4096; lo = p > a ? p : a; hi = p + 4096 < a + n ? p + 4096 : a + n
        resident += hi - lo
      }
      by[origin, cls] += resident; origins[origin] = 1; all[origin] += resident; linked[origin] += n
    }
    END {
      for (o in origins) if (all[o] >= 1024)
        printf "| %s | %d | %d | %d | %d | %d | %d |\n", o, by[o, "text"] / 1024,
               by[o, "rodata"] / 1024, by[o, "data"] / 1024, by[o, "other"] / 1024, all[o] / 1024,
               linked[o] / 1024
    }' "$dir/present" "$map" | sort -t'|' -k7 -nr
  echo
  echo "present pages of the executable: $(wc -l <"$dir/present") ($(($(wc -l <"$dir/present") * 4)) KiB)"
}

case ${1:-} in
  capture) [[ $# == 3 ]] || usage; capture "$2" "$3" ;;
  report)
    [[ $# == 2 || $# == 3 ]] || usage
    report_mappings "$2"
    [[ $# == 3 ]] && report_origins "$2" "$3"
    ;;
  *) usage ;;
esac

#!/usr/bin/env bash
# The layering check (docs/design.md §2): every #include "folder/..." in the
# product's C++ sources must name its own folder or one its row of LAYERS
# below allows. A row may only allow folders of a lower rank, so a table edit
# cannot turn the order upside down either: a lower folder never includes a
# higher one, and folders of one rank (the binaries' domains, the cmd/
# folders) never include each other.
#
# Usage: check_layering.sh [SOURCE_DIR]   (default: the clone holding this script)
# Prints each offending file, line and include, and exits 1; exits 0 when
# clean. Also fails on a product folder missing from the table. tests/,
# bench/ and tools/ are the harness: not checked, and never included by the
# product.
set -euo pipefail

# folder                   rank  may include (besides itself)
LAYERS='
base                       0
kube/api                   1     base
kube/client                2     base kube/api
kube/runtime               3     base kube/api kube/client
kube/tools                 4     base kube/api kube/client
csi                        5     base
metrics                    5     base
component                  6     base kube/api kube/client kube/runtime kube/tools csi metrics
csi_lite                   6     base csi
migration                  7     base kube/api
csi_params                 7     base kube/api
snapshot                   8     base kube/api kube/client kube/runtime component csi_params
attacher                   9     base kube/api kube/client kube/runtime kube/tools csi metrics component migration csi_params
provisioner                9     base kube/api kube/client kube/runtime kube/tools csi metrics component migration csi_params
resizer                    9     base kube/api kube/client kube/runtime kube/tools csi metrics component migration csi_params
snapshotter                9     base kube/api kube/client kube/runtime kube/tools csi metrics component csi_params snapshot
snapshot_controller        9     base kube/api kube/client kube/runtime kube/tools metrics component csi_params snapshot
liveness                   9     base csi csi_lite metrics component
registrar                  9     base csi csi_lite metrics component
attacher/command           10    base kube/client component attacher
snapshotter/command        10    base component snapshot snapshotter
provisioner/command        10    base kube/api kube/client component provisioner
resizer/command            10    base kube/client component resizer
sidecars                   10    base kube/api kube/client kube/runtime component migration
cmd/csi-sidecars           11    base component sidecars attacher/command provisioner/command resizer/command snapshotter/command
cmd/csi-attacher           11    base attacher/command
cmd/csi-snapshotter        11    base snapshotter/command
cmd/csi-provisioner        11    base provisioner/command
cmd/csi-resizer            11    base resizer/command
cmd/snapshot-controller    10    base metrics component snapshot snapshot_controller
cmd/livenessprobe          10    base component liveness
cmd/csi-node-driver-registrar 10 base component registrar
'
HARNESS='tests bench tools'

src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$src"

# The C++ files of the clone: tracked and untracked-but-not-ignored ones in a git checkout, else all
# outside build trees.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  files=$(git ls-files --cached --others --exclude-standard -- '*.h' '*.hpp' '*.cpp' '*.cc' '*.inc')
else
  files=$(find . -path './build*' -prune -o -path './.git' -prune -o \
            \( -name '*.h' -o -name '*.hpp' -o -name '*.cpp' -o -name '*.cc' -o -name '*.inc' \) \
            -type f -print | sed 's|^\./||')
fi

# Each file's quoted includes as "file<TAB>line<TAB>path", then "FILE<TAB>file"
# for every file, so that a file without includes is placed in the table too.
{
  printf '%s\n' "$files" | awk 'NF { print "FILE\t" $0 }'
  printf '%s\n' "$files" | xargs -d '\n' grep -snHE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' -- |
    sed -nE 's/^([^:]+):([0-9]+):[^"]*"([^"]+)".*/\1\t\2\t\3/p' || true
} | awk -v layers="$LAYERS" -v harness="$HARNESS" -F'\t' '
  BEGIN {
    n = split(layers, rows, "\n")
    for (i = 1; i <= n; i++) {
      m = split(rows[i], w, /[ \t]+/)
      if (m == 0 || w[1] == "") continue
      folder = w[1]; rank[folder] = w[2] + 0; folders[++nf] = folder
      allowed[folder] = " "
      for (j = 3; j <= m; j++) if (w[j] != "") allowed[folder] = allowed[folder] w[j] " "
    }
    # The table itself: only downward edges, to folders it knows.
    for (k = 1; k <= nf; k++) {
      f = folders[k]; m = split(allowed[f], deps, " ")
      for (j = 1; j <= m; j++) {
        d = deps[j]; if (d == "") continue
        if (!(d in rank)) { print "layer table: " f " may include " d ", which has no row"; bad = 1 }
        else if (rank[d] >= rank[f]) {
          print "layer table: " f " (rank " rank[f] ") may include " d " (rank " rank[d] \
                "): only lower ranks may be included"; bad = 1
        }
      }
    }
    split(harness, hw, " "); for (j in hw) is_harness[hw[j]] = 1
  }
  # The table folder holding path p: its longest matching row; "" for none.
  function folder_of(p,   k, best) {
    best = ""
    for (k = 1; k <= nf; k++)
      if (index(p, folders[k] "/") == 1 && length(folders[k]) > length(best)) best = folders[k]
    return best
  }
  function top(p) { return substr(p, 1, index(p, "/") - 1) }
  $1 == "FILE" {
    f = $2; t = top(f)
    if (t == "" || (t in is_harness) || substr(t, 1, 1) == ".") next
    if (folder_of(f) == "") { print f ": folder " t "/ is not in the layer table (tests/layering/check_layering.sh)"; bad = 1 }
    next
  }
  {
    file = $1; line = $2; inc = $3
    from = folder_of(file)
    if (from == "") next  # the harness, or reported above
    if (top(inc) in is_harness) {
      print file ":" line ": #include \"" inc "\": the product never includes " top(inc) "/"; bad = 1; next
    }
    to = folder_of(inc)
    if (to == "" || to == from) next  # outside the tree (generated, third-party) or its own folder
    if (index(allowed[from], " " to " ") == 0) {
      print file ":" line ": #include \"" inc "\": " from "/ may not include " to "/ (it may include:" \
            (allowed[from] == " " ? " nothing" : allowed[from]) ")"
      bad = 1
    }
  }
  END { exit bad }
'

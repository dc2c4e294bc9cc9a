#!/usr/bin/env bash
# The device tool copies the working tree (tracked files and untracked ones git does not ignore)
# plus the carried paths, 64 MiB in all, counted on disk. The committed result archives under
# bench/results take most of that, and no device call reads them. So before a session's device
# calls:
#   scripts/device_tree.sh slim      deletes the committed archives from the working tree only
#                                    (git still has them) and says how much the tree now takes;
#   scripts/device_tree.sh restore   checks them out again (run it before committing).
# While slim, git sees the archives as deleted: commit only named paths (never `git commit -a` or
# `git add -A bench`), or restore first.
set -euo pipefail
cd "$(dirname "$0")/.."
archives() { git ls-files -z -- 'bench/results/*.tar.gz' 'bench/results/*.tar.xz'; }
tree_bytes() {  # on disk, as the device tool counts: tracked files present plus untracked, not ignored
  { git ls-files -z --cached; git ls-files -z --others --exclude-standard; } |
    xargs -0 du -c -B1 2>/dev/null | awk '$2 == "total" { t += $1 } END { print t + 0 }'
}
case "${1:-}" in
  slim)
    n=$(archives | tr -cd '\0' | wc -c)
    archives | xargs -0 rm -f
    echo "removed $n committed archives from the working tree; it takes $(( $(tree_bytes) / 1048576 )) MiB on disk"
    ;;
  restore)
    missing=$(git ls-files -z --deleted -- 'bench/results/*.tar.gz' 'bench/results/*.tar.xz' | tr -cd '\0' | wc -c)
    if [ "$missing" -gt 0 ]; then
      git ls-files -z --deleted -- 'bench/results/*.tar.gz' 'bench/results/*.tar.xz' | xargs -0 git checkout --
    fi
    echo "restored $missing archives; the working tree takes $(( $(tree_bytes) / 1048576 )) MiB on disk"
    ;;
  *)
    echo "usage: scripts/device_tree.sh slim|restore" >&2
    exit 2
    ;;
esac

#!/usr/bin/env bash
# scripts/predict_diff.sh OLD_REV [NEW_REV] [MODELS_REV]
#
# Did a refactor change what a system submits? Predicts every offline shipped system (cite-all,
# lexical-extractive, trained-extractive, trained-plain) on every task (2025 on the demo test split,
# st1-st4 on demo test-2026) at two revisions and compares the submissions byte for byte.
# MODELS_REV: take the shipped model files (relevance, align) of that revision in both checkouts, so a
# retrained model between the revisions does not hide or fake a code change (default: each its own).
# Each revision is checked out in a temporary worktree with its own venv sharing this checkout's
# installed dependencies (.venv must exist: scripts/setup.sh). Prints one line per run, exit 1 on a difference.
set -euo pipefail
old=${1:?usage: scripts/predict_diff.sh OLD_REV [NEW_REV] [MODELS_REV]}
new=${2:-HEAD}
models=${3:-}
repo=$(cd "$(dirname "$0")/.." && pwd)
site=$("$repo/.venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
tmp=$(mktemp -d)
trap 'git -C "$repo" worktree remove --force "$tmp/old" 2>/dev/null || true;
      git -C "$repo" worktree remove --force "$tmp/new" 2>/dev/null || true; rm -rf "$tmp"' EXIT
MODEL_FILES=(archehr/relevance/model_lexical.json archehr/relevance/model_embedding.json archehr/align/model_pairwise.json)

checkout() {  # checkout NAME REV
    git -C "$repo" worktree add -q --detach "$tmp/$1" "$2"
    if [ -n "$models" ]; then
        git -C "$tmp/$1" checkout -q "$models" -- "${MODEL_FILES[@]}"
    fi
    python3 -m venv "$tmp/$1/.venv"
    local sp
    sp=$("$tmp/$1/.venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    echo "$site" > "$sp/zz_shared_deps.pth"
    "$tmp/$1/.venv/bin/pip" install -q --disable-pip-version-check --no-deps -e "$tmp/$1" >/dev/null
}

predict_all() {  # predict_all NAME
    local sys task split
    for sys in cite-all lexical-extractive trained-extractive trained-plain; do
        for task in 2025 st1 st2 st3 st4; do
            split=test-2026; [ "$task" = 2025 ] && split=test
            (cd "$tmp/$1" && OPENBLAS_NUM_THREADS=1 .venv/bin/archehr predict --system "$sys" --task "$task" \
                --split "$split" -o "$tmp/out-$1/$sys-$task" --no-progress >"$tmp/$1-$sys-$task.log" 2>&1) \
                || { echo "$1 ($sys, $task) failed:"; tail -3 "$tmp/$1-$sys-$task.log"; }
        done
    done
}

checkout old "$old"
checkout new "$new"
predict_all old
predict_all new
status=0
for d in "$tmp"/out-old/*/; do
    name=$(basename "$d")
    if cmp -s "$d/submission.json" "$tmp/out-new/$name/submission.json"; then
        echo "same      $name"
    else
        echo "DIFFERENT $name"
        status=1
    fi
done
exit $status

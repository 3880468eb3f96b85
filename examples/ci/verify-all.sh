#!/bin/sh
# Verify every sciproof manifest of a repository, for CI (github-actions.yml and gitlab-ci.yml
# call this; run it from the repository's root).
#
#   SCIPROOF  the sciproof binary (default: sciproof on PATH)
#   SUMMARY   a file the Markdown summary is appended to (GitHub: $GITHUB_STEP_SUMMARY;
#             default: sciproof-summary.md)
#   REPORTS   a folder for JUnit XML, one file per manifest (default: sciproof-reports)
#
# Exit status: 0 when every manifest passes, 1 if one fails or is invalid, 2 if one is only
# inconclusive (as `sciproof list --check`). Manifests in hidden folders, node_modules and
# target are skipped, as `sciproof list -r` skips them.
set -u
sciproof=${SCIPROOF:-sciproof}
summary=${SUMMARY:-sciproof-summary.md}
reports=${REPORTS:-sciproof-reports}
mkdir -p "$reports"

# The verdict of every manifest, as a table (and the exit status of the job).
"$sciproof" list -r --check --format markdown >> "$summary"
status=$?

# Each manifest's checks as a JUnit test suite, for the CI's test viewer.
find . -name '*.sciproof.json' \
    -not -path '*/.*/*' -not -path '*/node_modules/*' -not -path '*/target/*' | sort |
while IFS= read -r manifest; do
    name=$(printf '%s' "${manifest#./}" | tr '/' '_')
    "$sciproof" verify "$manifest" --format junit > "$reports/${name%.json}.xml" || true
done
exit "$status"

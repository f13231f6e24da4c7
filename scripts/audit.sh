#!/usr/bin/env bash
# Dependency audits for `make test`: govulncheck over the Go code and
# `npm audit --omit=dev` over the frontend (what ships). Each fails the run
# on a finding. When its database cannot be reached (an offline machine, a
# registry mirror without the audit endpoint) it prints one line and is
# skipped: an unreachable network is not a finding.
#   GOVULNDB   another vulnerability database for govulncheck (as govulncheck reads it)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .data/go/bin/go ] && export PATH="$PWD/.data/go/bin:$PATH"

GOVULNCHECK=golang.org/x/vuln/cmd/govulncheck@v1.9.0
db=${GOVULNDB:-https://vuln.go.dev}
reachable() { # url
  case "$1" in file://*) return 0 ;; esac
  command -v curl >/dev/null || { echo "  (curl is not installed: apt-get install curl)"; return 1; }
  curl -fsS --max-time 10 -o /dev/null "$1/index/db.json.gz" 2>/dev/null
}
if reachable "$db"; then
  echo "  govulncheck ($db)"
  go run "$GOVULNCHECK" -db "$db" ./...
else
  echo "  govulncheck skipped: the vulnerability database $db cannot be reached from this machine"
fi

# npm audit: exit 0 clean, 1 findings (listed), 2 the audit endpoint failed.
npm_audit() { # dir
  local out
  out=$(cd "$1" && npm audit --omit=dev --json 2>/dev/null || true)
  AUDIT_JSON="$out" node -e '
    let r; try { r = JSON.parse(process.env.AUDIT_JSON || "") } catch { process.exit(2) }
    if (!r.metadata || !r.metadata.vulnerabilities) { console.log(r.message || (r.error && r.error.summary) || "no report"); process.exit(2) }
    const found = Object.values(r.vulnerabilities || {})
    for (const v of found) console.log(`  ${v.severity}: ${v.name} ${v.range} (fix: ${v.fixAvailable ? "available" : "none yet"})`)
    process.exit(found.length ? 1 : 0)'
}
for dir in frontend; do
  set +e
  why=$(npm_audit "$dir")
  rc=$?
  set -e
  case $rc in
    0) echo "  npm audit --omit=dev ($dir): no known vulnerabilities" ;;
    1) echo "npm audit --omit=dev ($dir) found vulnerable packages:"; echo "$why"; exit 1 ;;
    *) echo "  npm audit ($dir) skipped: the registry's audit endpoint cannot be reached (${why:-no answer})" ;;
  esac
done

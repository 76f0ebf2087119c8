#!/usr/bin/env bash
# Make the pgvector extension (>= 0.7) available to the local PostgreSQL 15 server.
#
# Debian 12 (bookworm) ships no pgvector binary package, so we build Debian's
# trixie *source* package (pgvector 0.8.x) against postgresql-server-dev-15.
# The trixie deb-src entry is used through a private, throw-away apt
# configuration (own sources file + own lists dir under a temp dir): nothing is
# added to /etc/apt, so the system can never be upgraded towards trixie.
#
# Idempotent: if `vector` (>= 0.7) is already available it only says so and exits 0.
# Env overrides: PGHOST (127.0.0.1), PGPORT (5432), PGUSER (postgres),
#                DEBIAN_MIRROR (the mirror configured in /etc/apt, else deb.debian.org),
#                PGVECTOR_SUITE (trixie).
set -euo pipefail

PG_MAJOR=15
PG_CONFIG=/usr/lib/postgresql/${PG_MAJOR}/bin/pg_config
export PGHOST="${PGHOST:-127.0.0.1}" PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"
export DEBIAN_FRONTEND=noninteractive
MIN_VERSION=0.7.0
SUITE="${PGVECTOR_SUITE:-trixie}"
APT_LOCK_OPTS=(-o DPkg::Lock::Timeout=300)

log() { printf '[install_pgvector] %s\n' "$*"; }
die() { printf '[install_pgvector] ERROR: %s\n' "$*" >&2; exit 1; }

SECONDS=0
[[ $(id -u) -eq 0 ]] || die "must run as root (apt-get / make install)"

# ---------------------------------------------------------------- server up?
ensure_server() {
  if ! pg_isready -q -h "$PGHOST" -p "$PGPORT" 2>/dev/null; then
    if command -v pg_ctlcluster >/dev/null; then
      log "PostgreSQL ${PG_MAJOR} not answering on ${PGHOST}:${PGPORT}; starting cluster ${PG_MAJOR}/main"
      pg_ctlcluster --skip-systemctl-redirect "$PG_MAJOR" main start || true
    fi
    for _ in $(seq 1 30); do
      pg_isready -q -h "$PGHOST" -p "$PGPORT" && break
      sleep 1
    done
    pg_isready -q -h "$PGHOST" -p "$PGPORT" || die "PostgreSQL is not reachable on ${PGHOST}:${PGPORT}"
  fi
}

psql_q() { psql -X -v ON_ERROR_STOP=1 -tA "$@"; }

# version_ge A B  -> true if A >= B
version_ge() { [[ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" == "$2" ]]; }

sharedir() {
  if [[ -x "$PG_CONFIG" ]]; then "$PG_CONFIG" --sharedir; else echo "/usr/share/postgresql/${PG_MAJOR}"; fi
}
pkglibdir() {
  if [[ -x "$PG_CONFIG" ]]; then "$PG_CONFIG" --pkglibdir; else echo "/usr/lib/postgresql/${PG_MAJOR}/lib"; fi
}

# Prints the available default_version of `vector` ("" if not available).
available_version() {
  local v=""
  if pg_isready -q -h "$PGHOST" -p "$PGPORT" 2>/dev/null; then
    v=$(psql_q -d postgres -c "select default_version from pg_available_extensions where name='vector'" 2>/dev/null || true)
  fi
  if [[ -z "$v" ]]; then
    local ctl; ctl="$(sharedir)/extension/vector.control"
    if [[ -f "$ctl" && -f "$(pkglibdir)/vector.so" ]]; then
      v=$(sed -n "s/^default_version *= *'\([^']*\)'.*/\1/p" "$ctl")
      v=${v:-unknown}
    fi
  fi
  printf '%s' "$v"
}

# ---------------------------------------------------------------- verification
verify() {
  ensure_server
  local db="pgvector_ci_check_$$"
  log "verifying in scratch database ${db}"
  psql_q -d postgres -c "create database ${db}" >/dev/null
  # shellcheck disable=SC2064
  trap "psql -X -q -d postgres -c 'drop database if exists ${db}' >/dev/null 2>&1 || true" EXIT
  local out
  out=$(psql_q -d "$db" <<'SQL'
create extension if not exists vector;
select 'distance=' || ('[1,2,3]'::vector <-> '[1,2,4]'::vector);
create table t(e vector(3));
insert into t values ('[1,2,3]'), ('[3,2,1]'), ('[0,1,0]');
create index on t using hnsw (e vector_cosine_ops);
select 'hnsw=' || count(*) from pg_indexes where tablename = 't' and indexdef ilike '%hnsw%';
select 'version=' || extversion from pg_extension where extname = 'vector';
SQL
  ) || die "verification SQL failed"
  psql_q -d postgres -c "drop database if exists ${db}" >/dev/null
  trap - EXIT
  grep -qx 'distance=1' <<<"$out" || die "unexpected distance result: ${out}"
  grep -qx 'hnsw=1' <<<"$out" || die "HNSW index was not created: ${out}"
  local ver; ver=$(sed -n 's/^version=//p' <<<"$out")
  version_ge "$ver" "$MIN_VERSION" || die "installed pgvector ${ver} is older than ${MIN_VERSION}"
  log "OK: vector distance works, HNSW (vector_cosine_ops) index works; installed pgvector version ${ver}"
}

# ---------------------------------------------------------------- fast path
# (no server needed here: falls back to the control file + vector.so if psql can't connect)
have=$(available_version)
if [[ -n "$have" ]] && { [[ "$have" == unknown ]] || version_ge "$have" "$MIN_VERSION"; }; then
  log "pgvector already available for PostgreSQL ${PG_MAJOR} (version ${have}); nothing to do (${SECONDS}s)"
  exit 0
fi
[[ -n "$have" ]] && log "pgvector ${have} is older than ${MIN_VERSION}; rebuilding"

# ---------------------------------------------------------------- build deps
ensure_server   # fail early (before a build) if the server can't be reached/started
log "apt-get update"
apt-get "${APT_LOCK_OPTS[@]}" -qq update
log "installing build dependencies (postgresql-server-dev-${PG_MAJOR}, build-essential, dpkg-dev)"
apt-get "${APT_LOCK_OPTS[@]}" -qq -y install --no-install-recommends \
  "postgresql-server-dev-${PG_MAJOR}" build-essential dpkg-dev ca-certificates >/dev/null
[[ -x "$PG_CONFIG" ]] || die "$PG_CONFIG not found"

# ---------------------------------------------------------------- source
# Use the Debian mirror already configured on this machine (deb822 or one-line format).
if [[ -z "${DEBIAN_MIRROR:-}" ]]; then
  DEBIAN_MIRROR=$(
    { grep -hsE '^[[:space:]]*URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}'
      grep -hsE '^[[:space:]]*deb[[:space:]]' /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
        | sed -E 's/\[[^]]*\]//' | awk '{print $2}'
    } | grep -E '/debian/?$' | head -n1 || true)
  DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
fi
DEBIAN_MIRROR=${DEBIAN_MIRROR%/}

work=$(mktemp -d /tmp/pgvector-build.XXXXXX)
chmod 755 "$work"
cleanup_work() { rm -rf "$work"; }
trap cleanup_work EXIT
mkdir -p "$work/lists/partial" "$work/src"
chown _apt "$work/src" 2>/dev/null || true   # lets apt download sandboxed (as _apt)
cat >"$work/pgvector-src.sources" <<EOF
Types: deb-src
URIs: ${DEBIAN_MIRROR}
Suites: ${SUITE}
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
# Private apt config: only our deb-src entry, private lists dir, no change to /etc/apt.
APT_PRIV=(-o "Dir::Etc::SourceList=$work/pgvector-src.sources"
          -o "Dir::Etc::SourceParts=$work/none"
          -o "Dir::State::Lists=$work/lists")
log "fetching ${SUITE} source index (deb-src only, private apt lists) from ${DEBIAN_MIRROR}"
apt-get "${APT_PRIV[@]}" -qq update
src_ver=$(apt-cache "${APT_PRIV[@]}" showsrc pgvector | sed -n 's/^Version: //p' | sort -V | tail -n1)
[[ -n "$src_ver" ]] || die "pgvector source package not found in ${SUITE}"
log "downloading Debian source package pgvector ${src_ver}"
( cd "$work/src" && apt-get "${APT_PRIV[@]}" -qq source --download-only "pgvector=${src_ver}" >/dev/null )
dsc=$(ls "$work"/src/pgvector_*.dsc)
( cd "$work/src" && dpkg-source --no-check -x "$dsc" pgvector >/dev/null )  # hashes already checked by apt against the signed InRelease

# ---------------------------------------------------------------- build
log "building pgvector ${src_ver%-*} against PostgreSQL ${PG_MAJOR}"
jobs=$(nproc 2>/dev/null || echo 2)
# OPTFLAGS="" = portable build (no -march=native), same as Debian's no-native patch.
make -s -C "$work/src/pgvector" -j"$jobs" PG_CONFIG="$PG_CONFIG" OPTFLAGS="" >/dev/null
make -s -C "$work/src/pgvector" PG_CONFIG="$PG_CONFIG" OPTFLAGS="" install >/dev/null
log "installed into $("$PG_CONFIG" --pkglibdir) and $("$PG_CONFIG" --sharedir)/extension"
cleanup_work
trap - EXIT

# ---------------------------------------------------------------- verify
verify
log "done in ${SECONDS}s"

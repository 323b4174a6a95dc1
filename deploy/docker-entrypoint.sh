#!/bin/sh
# The command of the dailydeal image (deploy/Dockerfile); it runs outside docker too:
#   deploy/docker-entrypoint.sh [both | api | scheduler | COMMAND...]
# both (default): the scheduler and the API (gunicorn -c gunicorn.conf.py, next to this
#   file) side by side, sharing DAILYDEAL_DB; api or scheduler: one of them (two
#   containers on one volume); anything else runs as given.
# A normal stop (SIGTERM from `docker stop`, or SIGINT) stops what runs and exits 0. If a
# process stops on its own, the others are stopped and the exit status is 1, so the
# container's restart policy applies.
# The scheduler needs the server secret: DAILYDEAL_SECRET, or the file DAILYDEAL_SECRET_FILE
# (the image: /run/secrets/dailydeal_secret, a docker or compose secret, or a read-only
# bind mount), never in the database's volume. The API never reads it.
set -u

here=$(cd "$(dirname "$0")" && pwd)
conf=${DAILYDEAL_GUNICORN_CONF:-$here/gunicorn.conf.py}
pids=""
stopping=0
trap 'stopping=1' TERM INT  # set before anything starts: no stop request is missed

check_secret() {
  if [ -z "${DAILYDEAL_SECRET:-}" ] && [ -n "${DAILYDEAL_SECRET_FILE:-}" ] \
      && [ ! -s "$DAILYDEAL_SECRET_FILE" ]; then
    echo "dailydeal: no secret: $DAILYDEAL_SECRET_FILE is missing or empty." \
      "Create one (python3 -c 'import secrets; print(secrets.token_hex(32))' > secret.key)" \
      "and give it as a secret (docker run -v \$PWD/secret.key:$DAILYDEAL_SECRET_FILE:ro," \
      "or compose secrets:), or set DAILYDEAL_SECRET." >&2
    exit 78  # EX_CONFIG
  fi
}

start_scheduler() { dailydeal schedule & pids="$pids $!"; }
start_api() { gunicorn -c "$conf" & pids="$pids $!"; }

# Wait until a stop is asked for or one of the processes ends; stop the others; exit.
supervise() {
  while [ "$stopping" = 0 ]; do
    for pid in $pids; do
      kill -0 "$pid" 2>/dev/null || break 2
    done
    # a background sleep: `wait` returns at once when a trapped signal arrives
    sleep 1 &
    wait $! 2>/dev/null
  done
  trap '' TERM INT
  for pid in $pids; do kill -TERM "$pid" 2>/dev/null; done
  for pid in $pids; do wait "$pid" 2>/dev/null; done
  if [ "$stopping" = 1 ]; then
    exit 0
  fi
  echo "dailydeal: a process stopped on its own; stopping the container" >&2
  exit 1
}

case "${1:-both}" in
  both) check_secret; start_scheduler; start_api; supervise ;;
  api) start_api; supervise ;;
  scheduler) check_secret; start_scheduler; supervise ;;
  *) exec "$@" ;;
esac

#!/bin/sh
# Manual check (not part of npm test): the one-line install under a real systemd as PID 1, then a
# reboot, on a machine where systemd is not PID 1 (a CI container). Boots this machine's own root
# file system read-only under an overlay with systemd-nspawn (apt-get install systemd-container),
# shares the network so the agent reaches SERVER, runs the install line inside, reboots the
# container, and waits for the host to be connected again with nothing else done.
#
#   sudo sh apps/agent/scripts/reboot-check.sh http://127.0.0.1:PORT REGISTRATION_KEY ADMIN_TOKEN
#
# Writes nothing outside its temporary folder (the overlay's upper layer), which it removes.
set -eu
SERVER=$1
KEY=$2
TOKEN=$3
case "$KEY$TOKEN" in *[!A-Za-z0-9_-]*) echo 'the key and token hold only letters, digits, _ and -' >&2; exit 2 ;; esac
case "$SERVER" in *[!A-Za-z0-9:/._-]*) echo 'a plain http(s) URL, please' >&2; exit 2 ;; esac
command -v systemd-nspawn >/dev/null || { echo 'needs systemd-nspawn (apt-get install systemd-container)' >&2; exit 2; }
[ -x /lib/systemd/systemd ] || { echo 'needs systemd installed in this root file system' >&2; exit 2; }

DIR=$(mktemp -d /tmp/gh-reboot-XXXXXX)
mkdir -p "$DIR/upper" "$DIR/work" "$DIR/merged" /run/systemd/nspawn
mount -t overlay overlay -o "lowerdir=/,upperdir=$DIR/upper,workdir=$DIR/work" "$DIR/merged"
# nspawn removes its propagation folder under /run/systemd/nspawn, and refuses to on a disk file system.
RUN_TMPFS=0
if ! mountpoint -q /run/systemd/nspawn; then
  mount -t tmpfs tmpfs /run/systemd/nspawn
  RUN_TMPFS=1
fi
systemd-id128 new >"$DIR/merged/etc/machine-id"
NSPAWN=
cleanup() {
  [ -n "$NSPAWN" ] && kill "$NSPAWN" 2>/dev/null || true
  sleep 2
  umount "$DIR/merged" 2>/dev/null || true
  [ "$RUN_TMPFS" = 1 ] && umount /run/systemd/nspawn 2>/dev/null || true
  rm -rf "$DIR"
}
trap cleanup EXIT

boot() {
  systemd-nspawn -D "$DIR/merged" --register=no --keep-unit --link-journal=no -b >"$DIR/console-$1.log" 2>&1 &
  NSPAWN=$!
  for _ in $(seq 1 60); do
    INIT=$(pgrep -P "$NSPAWN" | head -1 || true)
    if [ -n "$INIT" ] && nsenter -t "$INIT" -a systemctl is-system-running 2>/dev/null | grep -qE 'running|degraded'; then
      return 0
    fi
    sleep 1
  done
  echo "the container did not boot: $DIR/console-$1.log" >&2
  exit 1
}
inside() { nsenter -t "$INIT" -a "$@"; }
state() {
  curl -fsS -m 5 -H "authentication-token: $TOKEN" "$SERVER/api/agent" |
    node -e 'let s="";process.stdin.on("data",(c)=>(s+=c)).on("end",()=>{const a=JSON.parse(s).agents.find((x)=>x.hostname==="reboot-check");process.stdout.write(a?a.state:"absent")})'
}
wait_connected() {
  for i in $(seq 1 60); do
    [ "$(state)" = connected ] && { echo "connected after ${i}s ($1)"; return 0; }
    sleep 1
  done
  echo "not connected ($1)" >&2
  exit 1
}

boot 1
inside /bin/sh -c "curl -fsSL '$SERVER/api/agent/install.sh' | sh -s -- --key '$KEY' --hostname reboot-check"
inside systemctl is-enabled gatehouse-agent.service
wait_connected 'after install'
inside systemctl reboot
wait "$NSPAWN" || true # nspawn exits when the container reboots
NSPAWN=
echo "state while down: $(state)"
boot 2
wait_connected 'after reboot, nothing done'
inside systemctl show -p User -p ActiveState gatehouse-agent.service
inside systemctl poweroff
wait "$NSPAWN" || true
NSPAWN=
echo 'reboot check: PASS'

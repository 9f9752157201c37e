#!/bin/sh
# Check of `install.sh --film-rdp` under a real systemd as PID 1 (sibling of reboot-check.sh, same
# container): boots this machine's root file system read-only under an overlay with
# systemd-nspawn -b (apt-get install systemd-container), sharing the network so the agent reaches
# SERVER, and inside it:
#   1. a user alice runs an X server (Xvfb :N, -auth ~/.Xauthority, 0600, listening only on
#      /tmp/.X11-unix/XN: -nolisten local drops the abstract socket) and an X client (xterm):
#      a stand-in for the X server xrdp-sesman starts for a session, with its own authority file;
#   2. the one-line install with --film-rdp; the agent connects (as root, writing its state folder);
#   3. `systemctl show` has the drop-in's values, `systemd-analyze verify` passes, the running
#      agent is uid 0 with exactly CAP_DAC_OVERRIDE CAP_DAC_READ_SEARCH CAP_SYS_PTRACE, NoNewPrivs;
#   4. film-rdp-probe.mjs runs as the unit's ExecStart (a drop-in replaces ExecStart only: same
#      unit, same sandbox, same node): it reads alice's X server /proc/<pid>/fd and cwd, `ss -xan`
#      and `ss -xan -p` show its connections with peers and owner, it reads alice's X authority file,
#      ffmpeg x11grab films one frame of :N through /tmp/.X11-unix, and it writes the state folder;
#   4b. where xrdp, xrdp-sesman and xfreerdp are installed: real xrdp in the container (its own
#      ports, sesman.ini and xrdp.ini in the overlay), alice logs in with xfreerdp, and the agent's
#      own lookup (dist/xrdp-session.js: run `npm run build` first), as the unit, follows that
#      connection to her Xorg (xorgxrdp) display and X authority; ffmpeg films her green screen;
#      then each line of the drop-in is undone in turn, and what the probe then cannot do is checked;
#   5. install again without the flag: the drop-in is kept;
#   6. install with --no-film-rdp: the drop-in is gone, the agent runs as gatehouse-agent, and the
#      same probe fails to do each of those (the control: the probe can tell).
#
#   sudo sh apps/agent/scripts/film-rdp-check.sh http://127.0.0.1:PORT REGISTRATION_KEY ADMIN_TOKEN
#
# The key must allow one enrolment. Writes nothing outside its temporary folder (the overlay's upper
# layer), which it removes; the container has a /tmp of its own (tmpfs). Ends with "film-rdp check: PASS" and exit 0, or says what failed.
set -eu
SERVER=$1
KEY=$2
TOKEN=$3
case "$KEY$TOKEN" in *[!A-Za-z0-9_-]*) echo 'the key and token hold only letters, digits, _ and -' >&2; exit 2 ;; esac
case "$SERVER" in *[!A-Za-z0-9:/._-]*) echo 'a plain http(s) URL, please' >&2; exit 2 ;; esac
command -v systemd-nspawn >/dev/null || { echo 'needs systemd-nspawn (apt-get install systemd-container)' >&2; exit 2; }
[ -x /lib/systemd/systemd ] || { echo 'needs systemd installed in this root file system' >&2; exit 2; }
for p in Xvfb xauth xterm ffmpeg ss node curl; do
  command -v "$p" >/dev/null || { echo "needs $p on this machine (the container is this root file system)" >&2; exit 2; }
done
HERE=$(cd "$(dirname "$0")" && pwd)
HOSTNAME_=film-rdp-check
UNIT=gatehouse-agent.service
DROPIN=/etc/systemd/system/$UNIT.d/film-rdp.conf
STATE=/var/lib/gatehouse-agent
# A display number free on this machine too: the container shares its network namespace, so the
# X server's abstract socket (@/tmp/.X11-unix/XN) and what ss lists are common to both.
N=$(( $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 400 + 400 ))
while [ -e "/tmp/.X11-unix/X$N" ] || grep -q "@/tmp/.X11-unix/X$N\$" /proc/net/unix; do N=$((N + 1)); done
DISPLAY_=:$N

DIR=$(mktemp -d /tmp/gh-filmrdp-XXXXXX)
mkdir -p "$DIR/upper" "$DIR/work" "$DIR/merged" /run/systemd/nspawn
mount -t overlay overlay -o "lowerdir=/,upperdir=$DIR/upper,workdir=$DIR/work" "$DIR/merged"
# nspawn removes its propagation folder under /run/systemd/nspawn, and refuses to on a disk file system.
RUN_TMPFS=0
if ! mountpoint -q /run/systemd/nspawn; then
  mount -t tmpfs tmpfs /run/systemd/nspawn
  RUN_TMPFS=1
fi
M=$DIR/merged
systemd-id128 new >"$M/etc/machine-id"
# The container starts with no agent of this machine's: no unit, no state, no drop-in.
rm -rf "$M/etc/systemd/system/$UNIT" "$M/etc/systemd/system/$UNIT.d" "$M$STATE" "$M/opt/gatehouse-agent"
# ... and none of the services this root file system may have enabled that listen on the network it
# shares with this machine (xrdp on 3389, sesman on 3350): the xrdp part below starts its own.
for s in xrdp.service xrdp-sesman.service ssh.service; do ln -sf /dev/null "$M/etc/systemd/system/$s"; done
NSPAWN=
cleanup() {
  if [ -n "$NSPAWN" ]; then
    kill "$NSPAWN" 2>/dev/null || true
    sleep 2
  fi
  umount "$DIR/merged" 2>/dev/null || true
  [ "$RUN_TMPFS" = 1 ] && umount /run/systemd/nspawn 2>/dev/null || true
  rm -rf "$DIR"
}
trap cleanup EXIT

fail() {
  if [ -n "${INIT:-}" ]; then
    echo "--- journalctl -u $UNIT (last 30 lines), inside the container:" >&2
    nsenter -t "$INIT" -a journalctl -u "$UNIT" -n 30 --no-pager >&2 || true
    if [ -n "${XRDP_PORT:-}" ]; then
      echo '--- xrdp, xrdp-sesman and the client, inside the container:' >&2
      nsenter -t "$INIT" -a journalctl -u gh-xrdp -u gh-sesman -u gh-rdp-client -n 40 --no-pager >&2 || true
    fi
  fi
  echo "film-rdp check: FAIL: $*" >&2
  exit 1
}

systemd-nspawn -D "$M" --register=no --keep-unit --link-journal=no --tmpfs=/tmp:mode=1777 -b >"$DIR/console.log" 2>&1 &
NSPAWN=$!
INIT=
for _ in $(seq 1 60); do
  INIT=$(pgrep -P "$NSPAWN" | head -1 || true)
  if [ -n "$INIT" ] && nsenter -t "$INIT" -a systemctl is-system-running 2>/dev/null | grep -qE 'running|degraded'; then
    break
  fi
  INIT=
  sleep 1
done
[ -n "$INIT" ] || { tail -20 "$DIR/console.log" >&2; fail 'the container did not boot'; }
echo "booted: systemd $(nsenter -t "$INIT" -a systemctl --version | head -1 | cut -d ' ' -f 2) as PID 1 of the container"
inside() { nsenter -t "$INIT" -a "$@"; }

state() {
  curl -fsS -m 5 -H "authentication-token: $TOKEN" "$SERVER/api/agent" |
    node -e 'let s="";process.stdin.on("data",(c)=>(s+=c)).on("end",()=>{const a=JSON.parse(s).agents.find((x)=>x.hostname===process.argv[1]);process.stdout.write(a?(a.connected?"connected":"not-connected"):"absent")})' "$HOSTNAME_"
}
wait_connected() {
  for i in $(seq 1 60); do
    [ "$(state)" = connected ] && { echo "connected after ${i}s ($1)"; return 0; }
    sleep 1
  done
  fail "not connected ($1)"
}
wait_active() {
  for _ in $(seq 1 30); do
    [ "$(inside systemctl show -P ActiveState "$UNIT")" = active ] && return 0
    sleep 1
  done
  fail "$UNIT is not active"
}

# 1. alice's X server and a client of it: transient units, as alice, on the container's /tmp.
inside useradd --create-home --shell /bin/sh alice
COOKIE=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
inside runuser -u alice -- xauth -q -f /home/alice/.Xauthority add "$DISPLAY_" . "$COOKIE" 2>/dev/null # (it says the file does not exist yet)
COOKIE=
inside chmod 0700 /home/alice
[ "$(inside stat -c '%a %U' /home/alice/.Xauthority)" = '600 alice' ] || fail 'the X authority file is not 0600 alice'
inside systemd-run --quiet --unit gh-alice-x -p User=alice -p WorkingDirectory=/home/alice \
  Xvfb "$DISPLAY_" -auth /home/alice/.Xauthority -nolisten tcp -nolisten local -screen 0 320x200x24
for _ in $(seq 1 20); do
  inside test -S "/tmp/.X11-unix/X${DISPLAY_#:}" && break
  sleep 0.5
done
inside systemd-run --quiet --unit gh-alice-client -p User=alice -E DISPLAY="$DISPLAY_" \
  -E XAUTHORITY=/home/alice/.Xauthority xterm -e sleep 600
XPID=$(inside systemctl show -P MainPID gh-alice-x.service)
[ "${XPID:-0}" != 0 ] || fail "alice's Xvfb is not running"
sleep 2
[ "$(inside systemctl show -P ActiveState gh-alice-client.service)" = active ] || fail "alice's xterm did not start"
echo "alice (uid $(inside id -u alice)): Xvfb $DISPLAY_ pid $XPID (its pid inside the container), xterm connected"

# 2. The one-line install, with --film-rdp.
inside /bin/sh -c "curl -fsSL '$SERVER/api/agent/install.sh' | sh -s -- --key '$KEY' --hostname $HOSTNAME_ --film-rdp" \
  2>"$DIR/install-1.log" || { cat "$DIR/install-1.log" >&2; fail 'install --film-rdp'; }
sed 's/^/  | /' "$DIR/install-1.log"
grep -q "wrote $DROPIN" "$DIR/install-1.log" || fail 'install.sh did not say it wrote the drop-in'
wait_active
wait_connected 'installed with --film-rdp, running as root'

# 3. The unit's effective properties, systemd's verdict, and the running agent's credentials.
show() { inside systemctl show -P "$1" "$UNIT"; }
expect() {
  GOT=$(show "$1")
  [ "$GOT" = "$2" ] || fail "systemctl show -P $1: '$GOT', expected '$2'"
  echo "  $1=$GOT"
}
echo 'systemctl show (with film-rdp.conf):'
expect DropInPaths "$DROPIN"
expect User root
expect Group root
expect PrivateTmp no
expect ProtectHome read-only
expect CapabilityBoundingSet 'cap_dac_override cap_dac_read_search cap_sys_ptrace'
expect AmbientCapabilities ''
expect RestrictAddressFamilies 'AF_INET AF_INET6 AF_NETLINK AF_UNIX'
expect ProtectProc default
expect ProcSubset all
expect NoNewPrivileges yes
expect ProtectSystem strict
expect ReadWritePaths "$STATE"
expect PrivateDevices yes
expect RestrictNamespaces yes
inside systemd-analyze verify --man=no "/etc/systemd/system/$UNIT" >"$DIR/verify.log" 2>&1 || {
  cat "$DIR/verify.log" >&2
  fail 'systemd-analyze verify'
}
if grep -q "$UNIT\|film-rdp" "$DIR/verify.log"; then
  cat "$DIR/verify.log" >&2
  fail 'systemd-analyze verify warned about the unit'
fi
echo "systemd-analyze verify: passed, no warning about $UNIT or its drop-in"
inside systemd-analyze security "$UNIT" 2>/dev/null | tail -1 | sed 's/^/systemd-analyze security: /'
APID=$(show MainPID)
STATUS_=$(inside cat "/proc/$APID/status")
AUID=$(printf '%s\n' "$STATUS_" | sed -n 's/^Uid:[[:space:]]*\([0-9]*\).*/\1/p')
ACAP=$(printf '%s\n' "$STATUS_" | sed -n 's/^CapEff:[[:space:]]*//p')
ANNP=$(printf '%s\n' "$STATUS_" | sed -n 's/^NoNewPrivs:[[:space:]]*//p')
# CAP_DAC_OVERRIDE (1), CAP_DAC_READ_SEARCH (2), CAP_SYS_PTRACE (19): 0x80006.
[ "$AUID $ACAP $ANNP" = '0 0000000000080006 1' ] || fail "the running agent: uid $AUID CapEff $ACAP NoNewPrivs $ANNP"
echo "the running agent (pid $APID): uid 0, CapEff 0000000000080006, NoNewPrivs 1"

# 4. The probe as the unit's ExecStart.
NODE_BIN=$(show ExecStart | sed -n 's/^{ path=\([^ ;]*\) .*/\1/p')
[ -n "$NODE_BIN" ] || fail 'no ExecStart path'
cp "$HERE/film-rdp-probe.mjs" "$M/opt/gatehouse-agent/film-rdp-probe.mjs"
# The agent's own xrdp lookup (node built-ins only), for the xrdp part below.
cp "$HERE/../dist/xrdp-session.js" "$M/opt/gatehouse-agent/xrdp-session.js" || fail 'apps/agent is not built (npm run build)'
chmod 0644 "$M/opt/gatehouse-agent/film-rdp-probe.mjs" "$M/opt/gatehouse-agent/xrdp-session.js"
probe() { # $1: name of the run; its findings land in $DIR/probe-$1.json
  probe_with "$1" "$1 $XPID $DISPLAY_ /home/alice/.Xauthority $STATE"
}
probe_with() { # $1: name of the run, $2: the probe's arguments
  mkdir -p "$M/etc/systemd/system/$UNIT.d"
  cat >"$M/etc/systemd/system/$UNIT.d/zz-probe.conf" <<PROBE
[Service]
ExecStart=
ExecStart=$NODE_BIN /opt/gatehouse-agent/film-rdp-probe.mjs $2
Restart=no
PROBE
  inside systemctl daemon-reload
  inside systemctl restart "$UNIT"
  for _ in $(seq 1 180); do
    [ "$(show ActiveState)" = active ] || break
    sleep 0.5
  done
  rm -f "$M/etc/systemd/system/$UNIT.d/zz-probe.conf"
  rmdir "$M/etc/systemd/system/$UNIT.d" 2>/dev/null || true
  inside systemctl daemon-reload
  for _ in $(seq 1 10); do
    inside journalctl -u "$UNIT" -o cat --no-pager | sed -n "s/^FILM-RDP-PROBE $1 //p" | tail -1 >"$DIR/probe-$1.json"
    [ -s "$DIR/probe-$1.json" ] && break
    sleep 0.5
  done
  [ -s "$DIR/probe-$1.json" ] || fail "the probe ($1) reported nothing"
  inside systemctl restart "$UNIT"
}
probe film-rdp
echo 'probe as the unit (film-rdp):'
node -e 'console.log(JSON.stringify(JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")),null,2))' "$DIR/probe-film-rdp.json" | sed 's/^/  | /'
node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const bad = [];
if (r.uid !== 0) bad.push("uid " + r.uid);
if (r.target.owner === 0) bad.push("the X server runs as root, not as another user");
if (!r.procFd.ok || r.procFd.sockets < 1) bad.push("/proc/<pid>/fd: " + JSON.stringify(r.procFd));
if (!r.procCwd.ok || r.procCwd.cwd !== "/home/alice") bad.push("/proc/<pid>/cwd: " + JSON.stringify(r.procCwd));
if (!r.procNet.ok || r.procNet.tcpLines < 2) bad.push("/proc/net/tcp: " + JSON.stringify(r.procNet));
if (!r.ss.ok || r.ss.withPeer < 1) bad.push("ss -xan peers: " + JSON.stringify(r.ss));
if (!r.ssProcesses.ok || !r.ssProcesses.serverNamed || r.ssProcesses.withPeer < 1) bad.push("ss -xan -p: " + JSON.stringify(r.ssProcesses));
if (!r.xauthority.ok || r.xauthority.bytes < 1) bad.push("X authority: " + JSON.stringify(r.xauthority));
if (!r.ffmpeg.ok || r.ffmpeg.bytes !== 320 * 200 * 4) bad.push("ffmpeg x11grab: " + JSON.stringify(r.ffmpeg));
if (!r.stateWrite.ok) bad.push("state folder: " + JSON.stringify(r.stateWrite));
if (bad.length) { console.error(bad.join("\n")); process.exit(1); }
' "$DIR/probe-film-rdp.json" || fail 'the unit with film-rdp.conf cannot do what capture needs (above)'
echo 'probe: /proc/<pid>/fd and cwd of alice'"'"'s X server, /proc/net/tcp, ss peers and owners, her 0600 X authority, ffmpeg x11grab of one frame, the state folder: all done'
wait_active
wait_connected 'after the probe, the agent again'

# Real xrdp in the container (when installed here): alice logs in with a real xfreerdp, and the
# agent's own lookup (xrdp-session.js), run as the unit, follows that connection to her session's
# Xorg (xorgxrdp) display and X authority; ffmpeg films it there, and the colour is hers.
if command -v xrdp >/dev/null && command -v xrdp-sesman >/dev/null && command -v xfreerdp >/dev/null; then
  free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
  XRDP_PORT=$(free_port)
  SESMAN_PORT=$(free_port)
  OFFSET=$((N + 1000))
  CLIENT_N=$((N + 2000))
  PW=Pw-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
  printf 'alice:%s\n' "$PW" | inside chpasswd
  printf '#!/bin/sh\nxsetroot -solid "#00ff00"\nexec sleep 100000\n' >"$M/home/alice/startwm.sh"
  inside chmod 0755 /home/alice/startwm.sh
  inside chown alice:alice /home/alice/startwm.sh
  # The container's own copies (the overlay's upper layer): sesman's port is read from this very file.
  sed -i -e "s/^ListenPort=.*/ListenPort=$SESMAN_PORT/" -e "s/^X11DisplayOffset=.*/X11DisplayOffset=$OFFSET/" \
    "$M/etc/xrdp/sesman.ini"
  awk '/^\[Xvnc\]/{exit} {print}' "$M/etc/xrdp/xrdp.ini" | sed "s|^port=3389\$|port=tcp://127.0.0.1:$XRDP_PORT|" \
    >"$DIR/xrdp.ini"
  cp "$DIR/xrdp.ini" "$M/etc/xrdp/xrdp.ini"
  inside systemd-run --quiet --unit gh-sesman xrdp-sesman -n
  inside systemd-run --quiet --unit gh-xrdp xrdp -n
  for _ in $(seq 1 30); do
    [ -n "$(ss -Hltn "sport = :$XRDP_PORT")" ] && break
    sleep 0.5
  done
  [ -n "$(ss -Hltn "sport = :$XRDP_PORT")" ] || fail "xrdp did not listen on 127.0.0.1:$XRDP_PORT in the container"
  inside systemd-run --quiet --unit gh-client-x Xvfb ":$CLIENT_N" -nolisten tcp -screen 0 1024x768x24
  for _ in $(seq 1 20); do
    inside test -S "/tmp/.X11-unix/X$CLIENT_N" && break
    sleep 0.5
  done
  # The password in a file of the container's root (0700), not on a command line or in a log.
  # (xfreerdp exits 1 without a word when HOME is not set, as in a service.)
  printf '#!/bin/sh\nexport HOME=/root\nexec xfreerdp /v:127.0.0.1:%s /u:alice /p:%s /cert:ignore /size:800x600 -clipboard >/root/rdp-client.log 2>&1\n' \
    "$XRDP_PORT" "$PW" >"$M/root/rdp-client.sh"
  chmod 0700 "$M/root/rdp-client.sh"
  PW=
  inside systemd-run --quiet --unit gh-rdp-client -E "DISPLAY=:$CLIENT_N" /root/rdp-client.sh
  CLIENT_PORT=
  for _ in $(seq 1 30); do
    CLIENT_PORT=$(ss -Htn state established "dport = :$XRDP_PORT" | awk '{print $3}' | sed 's/.*://' | head -1)
    [ -n "$CLIENT_PORT" ] && break
    sleep 0.5
  done
  [ -n "$CLIENT_PORT" ] || { sed 's/^/  xfreerdp: /' "$M/root/rdp-client.log" >&2; fail 'xfreerdp did not connect to xrdp'; }
  probe_with xrdp "--xrdp xrdp $CLIENT_PORT $XRDP_PORT"
  echo "xrdp in the container, alice through xfreerdp (client port $CLIENT_PORT), the agent's lookup as the unit: $(cat "$DIR/probe-xrdp.json")"
  node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const ok = r.uid === 0 && r.lookup === "session" && r.user === "alice" && r.ffmpeg && r.ffmpeg.ok &&
  Math.abs(r.ffmpeg.rgb[0]) < 40 && r.ffmpeg.rgb[1] > 215 && r.ffmpeg.rgb[2] < 40;
if (!ok) process.exit(1);
' "$DIR/probe-xrdp.json" || fail "the unit did not follow alice's xrdp connection to her green session"
  echo "xrdp: session of alice found on $(sed -n 's/.*"display":"\([^"]*\)".*/\1/p' "$DIR/probe-xrdp.json") and filmed: green, as her startwm.sh painted it"
  inside systemctl stop gh-rdp-client gh-client-x gh-xrdp gh-sesman 2>/dev/null || true
  wait_active
else
  echo 'xrdp, xrdp-sesman or xfreerdp is not installed here: the xrdp part is skipped (the X server stand-in above holds)'
fi

# Each line of the drop-in is needed: the probe again with one of them undone (another drop-in
# after film-rdp.conf), and what it then cannot do.
variant() { # $1 name, $2 the line(s) undoing it, $3 what must then fail (a JS condition on r)
  printf '[Service]\n%b\n' "$2" >"$M/etc/systemd/system/$UNIT.d/zy-variant.conf"
  probe "v-$1"
  rm -f "$M/etc/systemd/system/$UNIT.d/zy-variant.conf"
  inside systemctl daemon-reload
  inside systemctl restart "$UNIT"
  node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const f = (k) => (r[k].ok ? "ok" : "FAILS (" + r[k].error + ")");
console.log("  without " + process.argv[2] + ": /proc fd " + f("procFd") + ", /proc/net " + f("procNet") +
  ", ss peers " + (r.ss.ok ? r.ss.withPeer : r.ss.error) + ", ss -p names X " + (r.ssProcesses.ok && r.ssProcesses.serverNamed) +
  ", X authority " + f("xauthority") + ", ffmpeg " + f("ffmpeg") + ", state " + f("stateWrite"));
if (!new Function("r", "return " + process.argv[3])(r)) { console.error("expected: " + process.argv[3]); process.exit(1); }
' "$DIR/probe-v-$1.json" "$1" "$3" || fail "without $1 the probe could still do what it needs it for"
}
echo 'each line of film-rdp.conf, undone one at a time:'
variant CAP_SYS_PTRACE 'CapabilityBoundingSet=\nCapabilityBoundingSet=CAP_DAC_READ_SEARCH CAP_DAC_OVERRIDE' \
  '!r.procFd.ok && !r.procCwd.ok && !r.ssProcesses.serverNamed'
variant CAP_DAC_OVERRIDE 'CapabilityBoundingSet=\nCapabilityBoundingSet=CAP_SYS_PTRACE CAP_DAC_READ_SEARCH' \
  '!r.stateWrite.ok && r.xauthority.ok && r.ffmpeg.ok'
# CAP_DAC_OVERRIDE covers reading too: without CAP_DAC_READ_SEARCH nothing changes (printed, not asserted).
variant CAP_DAC_READ_SEARCH 'CapabilityBoundingSet=\nCapabilityBoundingSet=CAP_SYS_PTRACE CAP_DAC_OVERRIDE' 'true'
variant AF_NETLINK 'RestrictAddressFamilies=\nRestrictAddressFamilies=AF_UNIX AF_INET AF_INET6' \
  'r.ss.ok && r.ss.withPeer === 0'
variant PrivateTmp=no 'PrivateTmp=yes' '!r.ffmpeg.ok && r.xauthority.ok'
variant ProtectHome=read-only 'ProtectHome=yes' '!r.xauthority.ok'
variant ProcSubset=all 'ProcSubset=pid' '!r.procNet.ok'
variant User=root 'User=gatehouse-agent\nGroup=gatehouse-agent' \
  '!r.procFd.ok && !r.xauthority.ok && r.stateWrite.ok'
wait_active
wait_connected 'after the variants, the agent again'

# 5. Again without the flag: kept.
inside /bin/sh -c "curl -fsSL '$SERVER/api/agent/install.sh' | sh -s --" 2>"$DIR/install-2.log" ||
  { cat "$DIR/install-2.log" >&2; fail 'install again'; }
grep -q "kept $DROPIN" "$DIR/install-2.log" || { cat "$DIR/install-2.log" >&2; fail 'install again did not say it kept the drop-in'; }
inside test -f "$DROPIN" || fail 'install again removed the drop-in'
wait_active
[ "$(show User)" = root ] || fail 'install again: User is not root'
echo "install again without the flag: $(grep "kept $DROPIN" "$DIR/install-2.log")"
wait_connected 'after the upgrade in place'

# 6. --no-film-rdp: removed, the agent runs as gatehouse-agent, and the probe cannot do it.
inside /bin/sh -c "curl -fsSL '$SERVER/api/agent/install.sh' | sh -s -- --no-film-rdp" 2>"$DIR/install-3.log" ||
  { cat "$DIR/install-3.log" >&2; fail 'install --no-film-rdp'; }
grep -q "removed $DROPIN" "$DIR/install-3.log" || { cat "$DIR/install-3.log" >&2; fail 'no "removed"'; }
inside test ! -e "$DROPIN" || fail '--no-film-rdp left the drop-in'
wait_active
expect User gatehouse-agent
expect CapabilityBoundingSet ''
expect PrivateTmp yes
expect ProtectHome yes
wait_connected 'after --no-film-rdp, as gatehouse-agent'
probe plain
echo 'probe as the unit (no drop-in, the control):'
node -e 'console.log(JSON.stringify(JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")),null,2))' "$DIR/probe-plain.json" | sed 's/^/  | /'
node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const bad = [];
if (r.uid === 0) bad.push("uid 0");
if (r.procFd.ok) bad.push("read /proc/<pid>/fd of another user");
if (r.procCwd.ok) bad.push("read /proc/<pid>/cwd of another user");
if (r.ss.ok && r.ss.withPeer > 0) bad.push("saw the X socket peers");
if (r.ssProcesses.ok && r.ssProcesses.serverNamed) bad.push("saw the X server in ss -p");
if (r.xauthority.ok) bad.push("read the X authority file");
if (r.ffmpeg.ok) bad.push("filmed the display");
if (!r.stateWrite.ok) bad.push("could not write its own state folder");
if (bad.length) { console.error(bad.join("\n")); process.exit(1); }
' "$DIR/probe-plain.json" || fail 'without the drop-in the probe still did what capture needs: the check cannot tell'
echo 'control: without film-rdp.conf the same probe could do none of it (and still writes its state folder)'

inside systemctl poweroff
wait "$NSPAWN" || true
NSPAWN=
echo 'film-rdp check: PASS'

#!/bin/sh
# Gatehouse agent: install or upgrade on a Linux host with systemd.
#
#   curl -fsSL SERVER/api/agent/install.sh | sudo sh -s -- --key REGISTRATION_KEY
#
# The server fills in the three values below when it serves this script. Run again (with or
# without --key), it upgrades in place: the file is replaced, the enrolment kept, the service
# restarted. Nothing in this script is secret; the registration key is passed to it, never stored.
set -eu

GATEHOUSE_SERVER_URL='__GATEHOUSE_SERVER_URL__'
GATEHOUSE_AGENT_SHA256='__GATEHOUSE_AGENT_SHA256__'
GATEHOUSE_AGENT_VERSION='__GATEHOUSE_AGENT_VERSION__'

AGENT_USER=gatehouse-agent
UNIT_NAME=gatehouse-agent.service

say() { printf 'gatehouse-agent install: %s\n' "$*" >&2; }
die() {
  say "$*"
  exit 1
}

usage() {
  cat >&2 <<'USAGE'
Usage: curl -fsSL SERVER/api/agent/install.sh | sudo sh -s -- [options]

  --key KEY         registration key (Keys in the console); needed the first time only
  --key-file FILE   read the registration key from FILE instead (keeps it out of the process list)
  --state-dir DIR   where the agent keeps its identity (default /var/lib/gatehouse-agent)
  --hostname NAME   name to enrol this host with (default: this machine's hostname)
  --node PATH       the Node.js (20 or later) to run the agent with (default: node on PATH)
  --no-start        install and enrol, but do not enable or start the service
  --film-rdp        run the service as root, with only what filming xrdp sessions needs (a drop-in,
                    gatehouse-agent.service.d/film-rdp.conf); without it, RDP sessions to this host
                    are not filmed (and refused where the definition requires video)
  --no-film-rdp     remove that drop-in: the service runs as gatehouse-agent again. Run again with
                    neither, the script keeps the drop-in as it is
  --help            this text

Environment: GATEHOUSE_INSTALL_ROOT=DIR installs under DIR (for images and tests): no system user is
created, files keep the caller as owner, and the unit names the paths under DIR.
USAGE
}

# Filming xrdp sessions: the agent follows a stream to its session through other users' /proc
# entries (ss -xan over netlink, /proc/<pid>/fd and cwd of xrdp and Xorg), names the session owner's
# X authority file (in their home or /run/user) and runs ffmpeg x11grab against the X server's
# socket in /tmp/.X11-unix. The drop-in gives exactly that on top of the unit's hardening, which
# otherwise stays: NoNewPrivileges, ProtectSystem=strict (a read-only file system, the state folder
# writable; connecting to a socket is not a write), PrivateDevices, the kernel protections.
film_rdp() {
  case "$FILM_RDP" in
    yes) ;;
    no)
      if [ -f "$DROPIN_FILE" ]; then
        rm -f "$DROPIN_FILE"
        rmdir "$DROPIN_DIR" 2>/dev/null || true
        say "removed $DROPIN_FILE (--no-film-rdp): the agent runs as $AGENT_USER and RDP sessions to this host are not filmed"
      else
        say "--no-film-rdp: there was no $DROPIN_FILE; the agent runs as $AGENT_USER"
      fi
      return 0
      ;;
    *)
      if [ -f "$DROPIN_FILE" ]; then
        say "kept $DROPIN_FILE: the agent runs as root and films xrdp sessions (--no-film-rdp removes it)"
      else
        say "RDP sessions to this host are not filmed (the agent runs as $AGENT_USER); --film-rdp films them"
      fi
      return 0
      ;;
  esac
  mkdir -p "$DROPIN_DIR"
  cat >"$DROPIN_FILE.part" <<'DROPIN'
# Written by the Gatehouse agent install script (--film-rdp); --no-film-rdp removes it, and running
# the script again without either keeps it. The agent films xrdp sessions: it runs as root with
# only these capabilities, on top of gatehouse-agent.service's hardening.
[Service]
User=root
Group=root
# ffmpeg connects to the session's X server at /tmp/.X11-unix/X<N>: the host's /tmp, not a private one.
PrivateTmp=no
# The session owner's X authority file, in their home or /run/user/<uid>: seen, never written.
ProtectHome=read-only
# CAP_SYS_PTRACE: other users' /proc/<pid>/fd and cwd (xrdp, Xorg; ss's view of socket owners).
# CAP_DAC_READ_SEARCH: read the owner's 0600 X authority file (ffmpeg opens it).
# CAP_DAC_OVERRIDE: write the state folder, which belongs to gatehouse-agent (0700).
CapabilityBoundingSet=
CapabilityBoundingSet=CAP_SYS_PTRACE CAP_DAC_READ_SEARCH CAP_DAC_OVERRIDE
# ss asks the kernel for unix sockets' peers over netlink (sock_diag).
RestrictAddressFamilies=
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK
# Every process in /proc, in full (the unit's defaults, stated so that later hardening keeps them).
ProtectProc=default
ProcSubset=all
DROPIN
  chmod 0644 "$DROPIN_FILE.part"
  mv -f "$DROPIN_FILE.part" "$DROPIN_FILE"
  say "wrote $DROPIN_FILE (--film-rdp): the agent runs as root with CAP_SYS_PTRACE CAP_DAC_READ_SEARCH CAP_DAC_OVERRIDE and films xrdp sessions"
  MISSING=
  command -v ffmpeg >/dev/null 2>&1 || MISSING="ffmpeg (Debian/Ubuntu: apt-get install ffmpeg; Fedora/RHEL: dnf install ffmpeg from RPM Fusion)"
  if ! command -v ss >/dev/null 2>&1; then
    [ -z "$MISSING" ] || MISSING="$MISSING; and "
    MISSING="${MISSING}ss (Debian/Ubuntu: apt-get install iproute2; Fedora/RHEL: dnf install iproute)"
  fi
  if [ -n "$MISSING" ]; then
    say "WARNING: filming needs $MISSING. Until then RDP sessions report the capture failed"
  elif ! ffmpeg -hide_banner -devices 2>/dev/null | grep -q x11grab; then
    say "WARNING: this ffmpeg has no x11grab device; install a build with it (Debian/Ubuntu: apt-get install ffmpeg)"
  fi
}

# Everything runs from main, called on the last line: a download cut short runs nothing.
main() {
KEY=
KEY_FILE=
STATE_DIR=/var/lib/gatehouse-agent
HOST_NAME=
NODE_BIN=
START=1
FILM_RDP=
need_value() {
  [ "$#" -ge 2 ] && [ -n "$2" ] || die "$1 needs a value (see --help)"
}
while [ "$#" -gt 0 ]; do
  case "$1" in
    --key) need_value "$@"; KEY=$2; shift 2 ;;
    --key=*) KEY=${1#--key=}; shift ;;
    --key-file) need_value "$@"; KEY_FILE=$2; shift 2 ;;
    --key-file=*) KEY_FILE=${1#--key-file=}; shift ;;
    --state-dir) need_value "$@"; STATE_DIR=$2; shift 2 ;;
    --state-dir=*) STATE_DIR=${1#--state-dir=}; shift ;;
    --hostname) need_value "$@"; HOST_NAME=$2; shift 2 ;;
    --hostname=*) HOST_NAME=${1#--hostname=}; shift ;;
    --node) need_value "$@"; NODE_BIN=$2; shift 2 ;;
    --node=*) NODE_BIN=${1#--node=}; shift ;;
    --no-start) START=0; shift ;;
    --film-rdp)
      [ "$FILM_RDP" != no ] || die "--film-rdp and --no-film-rdp together: pass one"
      FILM_RDP=yes
      shift
      ;;
    --no-film-rdp)
      [ "$FILM_RDP" != yes ] || die "--film-rdp and --no-film-rdp together: pass one"
      FILM_RDP=no
      shift
      ;;
    -h | --help) usage; exit 0 ;;
    *) usage; die "unknown option (see --help)" ;;
  esac
done

# Every value that reaches a command line, the unit file or the agent is checked against a plain
# alphabet first; the unit file has no shell, but these rules keep it free of quoting as well.
safe_path() {
  case "$2" in
    /*) ;;
    *) die "$1 must be an absolute path" ;;
  esac
  case "$2" in
    *[!A-Za-z0-9._/+-]* | *..*) die "$1 may hold only letters, digits and . _ / + - (and no ..)" ;;
  esac
}

if [ -n "$KEY_FILE" ]; then
  [ -r "$KEY_FILE" ] || die "cannot read the key file"
  KEY=$(head -c 512 "$KEY_FILE" | tr -d ' \t\r\n')
fi
if [ -n "$KEY" ]; then
  case "$KEY" in
    *[!A-Za-z0-9_-]*) die "the registration key may hold only letters, digits, _ and - (copy it again from the console)" ;;
  esac
  [ "${#KEY}" -le 200 ] || die "the registration key is longer than 200 characters"
fi
if [ -n "$HOST_NAME" ]; then
  case "$HOST_NAME" in
    *[!A-Za-z0-9.-]* | .* | -*) die "--hostname must be a DNS-like name (letters, digits, - and .)" ;;
  esac
  [ "${#HOST_NAME}" -le 253 ] || die "--hostname is longer than 253 characters"
fi
safe_path --state-dir "$STATE_DIR"
ROOT=${GATEHOUSE_INSTALL_ROOT:-}
if [ -n "$ROOT" ]; then
  safe_path GATEHOUSE_INSTALL_ROOT "$ROOT"
  ROOT=${ROOT%/}
fi
case "$GATEHOUSE_SERVER_URL" in
  http://* | https://*) ;;
  *) die "this script was not served by a Gatehouse server (no server URL in it)" ;;
esac
case "$GATEHOUSE_AGENT_SHA256" in
  *[!0-9a-f]* | '') die "this script was not served by a Gatehouse server (no checksum in it)" ;;
esac

case "$(uname -s)" in
  Linux) ;;
  *) die "this script installs on Linux with systemd; on $(uname -s), run gatehouse-agent.mjs under your own supervisor (docs/deploy/agent.md)" ;;
esac
if [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
  die "run it as root: curl -fsSL $GATEHOUSE_SERVER_URL/api/agent/install.sh | sudo sh -s -- --key KEY"
fi
if [ -z "$ROOT" ] && ! command -v systemctl >/dev/null 2>&1 && [ "$START" = 1 ]; then
  die "systemd was not found (no systemctl). Pass --no-start and run the agent under your own supervisor; see the server's docs/deploy/agent.md"
fi

# Node.js 20 or later runs the agent (one file, no node_modules).
if [ -z "$NODE_BIN" ]; then
  NODE_BIN=$(command -v node 2>/dev/null || true)
  [ -n "$NODE_BIN" ] || die "Node.js 20 or later is needed and 'node' is not on PATH. Install it (Debian 13 / Ubuntu 24.04: apt-get install nodejs; others: https://nodejs.org/en/download or your distribution's nodejs 20+ package), or pass --node /path/to/node"
fi
safe_path --node "$NODE_BIN"
[ -x "$NODE_BIN" ] || die "$NODE_BIN is not an executable Node.js"
NODE_MAJOR=$("$NODE_BIN" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
case "$NODE_MAJOR" in
  *[!0-9]* | '') NODE_MAJOR=0 ;;
esac
[ "$NODE_MAJOR" -ge 20 ] || die "Node.js 20 or later is needed; $NODE_BIN is version $("$NODE_BIN" --version 2>/dev/null || echo unknown). Install a newer nodejs, or pass --node /path/to/node20"
case "$NODE_BIN" in
  /home/* | /root/* | /run/user/*)
    die "$NODE_BIN is under a home folder, which the service cannot see (ProtectHome=yes). Install Node.js system-wide (/usr/bin/node or /usr/local/bin/node) or pass --node with such a path"
    ;;
esac

INSTALL_DIR=$ROOT/opt/gatehouse-agent
AGENT_FILE=$INSTALL_DIR/gatehouse-agent.mjs
STATE=$ROOT$STATE_DIR
UNIT_FILE=$ROOT/etc/systemd/system/$UNIT_NAME
DROPIN_DIR=$UNIT_FILE.d
DROPIN_FILE=$DROPIN_DIR/film-rdp.conf
# An upgrade keeps the --hostname the host was installed with (only plain name characters are read back).
if [ -z "$HOST_NAME" ] && [ -f "$UNIT_FILE" ]; then
  HOST_NAME=$(sed -n 's/^ExecStart=.* --hostname \([A-Za-z0-9.-]*\).*$/\1/p' "$UNIT_FILE" | head -n 1)
fi

# The system user the agent runs as: no login, no home of its own but the state folder.
if [ -z "$ROOT" ]; then
  if ! id -u "$AGENT_USER" >/dev/null 2>&1; then
    NOLOGIN=/usr/sbin/nologin
    [ -x "$NOLOGIN" ] || NOLOGIN=/sbin/nologin
    [ -x "$NOLOGIN" ] || NOLOGIN=/bin/false
    if command -v useradd >/dev/null 2>&1; then
      useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home --shell "$NOLOGIN" \
        --comment 'Gatehouse agent' "$AGENT_USER"
    else
      adduser --system --group --home "$STATE_DIR" --no-create-home --shell "$NOLOGIN" "$AGENT_USER"
    fi
    say "created the system user $AGENT_USER"
  fi
else
  say "GATEHOUSE_INSTALL_ROOT=$ROOT: installing under it; no system user is created, files stay owned by $(id -un)"
fi

# The file, downloaded beside its destination, checked against the SHA-256 this script was served
# with, then renamed over the old one (an upgrade never leaves half a file).
mkdir -p "$INSTALL_DIR"
chmod 0755 "$INSTALL_DIR"
UPGRADE=0
[ -f "$AGENT_FILE" ] && UPGRADE=1
PART=$INSTALL_DIR/.gatehouse-agent.mjs.part
rm -f "$PART"
trap 'rm -f "$PART"' EXIT
URL=$GATEHOUSE_SERVER_URL/api/agent/download/gatehouse-agent.mjs
if command -v curl >/dev/null 2>&1; then
  curl -fsSL --proto '=https,http' -o "$PART" "$URL" || die "could not download $URL"
elif command -v wget >/dev/null 2>&1; then
  wget -q -O "$PART" "$URL" || die "could not download $URL"
else
  die "neither curl nor wget is installed"
fi
if command -v sha256sum >/dev/null 2>&1; then
  GOT=$(sha256sum "$PART" | cut -d ' ' -f 1)
else
  GOT=$("$NODE_BIN" -e 'process.stdout.write(require("node:crypto").createHash("sha256").update(require("node:fs").readFileSync(process.argv[1])).digest("hex"))' "$PART")
fi
[ "$GOT" = "$GATEHOUSE_AGENT_SHA256" ] || die "the downloaded agent's SHA-256 is $GOT, not $GATEHOUSE_AGENT_SHA256 as the server announced: not installed (try again; if it repeats, something between this host and the server changes the file)"
chmod 0644 "$PART"
mv -f "$PART" "$AGENT_FILE"
trap - EXIT
say "installed $AGENT_FILE (version $GATEHOUSE_AGENT_VERSION, sha256 $GOT)"

# The state folder: the agent's identity, readable by its user only.
mkdir -p "$STATE"
chmod 0700 "$STATE"
if [ -z "$ROOT" ]; then
  chown "$AGENT_USER:$AGENT_USER" "$STATE"
fi

run_as_agent() {
  if [ -n "$ROOT" ]; then
    "$@"
  elif command -v runuser >/dev/null 2>&1; then
    runuser -u "$AGENT_USER" -- "$@"
  else
    setpriv --reuid="$AGENT_USER" --regid="$AGENT_USER" --init-groups -- "$@"
  fi
}

# Enrolment, once: the key goes to the agent in its environment (not its arguments) and is not kept.
if [ -f "$STATE/identity.json" ]; then
  say "already enrolled (identity in $STATE_DIR): the key is not used"
else
  [ -n "$KEY" ] || die "this host is not enrolled yet: pass --key REGISTRATION_KEY (Agents > Add host in the console)"
  set -- --server "$GATEHOUSE_SERVER_URL" --state-dir "$STATE" --enrol-only
  [ -n "$HOST_NAME" ] && set -- "$@" --hostname "$HOST_NAME"
  STATUS=0
  GATEHOUSE_REGISTRATION_KEY=$KEY run_as_agent "$NODE_BIN" "$AGENT_FILE" "$@" || STATUS=$?
  KEY=
  case "$STATUS" in
    0) say "enrolled with $GATEHOUSE_SERVER_URL" ;;
    2) die "the server refused the registration key (wrong, deleted, used up or expired): get a new one from the console" ;;
    *) die "enrolment failed (exit $STATUS): see the message above" ;;
  esac
fi

# The service: its own user, restarted whenever it stops, and fenced in.
HOSTNAME_ARG=
[ -n "$HOST_NAME" ] && HOSTNAME_ARG=" --hostname $HOST_NAME"
mkdir -p "$(dirname "$UNIT_FILE")"
cat >"$UNIT_FILE.part" <<UNIT
# Written by the Gatehouse agent install script ($GATEHOUSE_SERVER_URL/api/agent/install.sh).
# Running the script again rewrites this file.
[Unit]
Description=Gatehouse agent
Documentation=$GATEHOUSE_SERVER_URL/api/openapi.json
Wants=network-online.target
After=network-online.target

[Service]
Type=simple
User=$AGENT_USER
Group=$AGENT_USER
ExecStart=$NODE_BIN $AGENT_FILE --server $GATEHOUSE_SERVER_URL --state-dir $STATE$HOSTNAME_ARG
Restart=always
RestartSec=5
# Exit 3: the server revoked this agent; restarting cannot help (enrol again with a new key).
RestartPreventExitStatus=3
UMask=0077
NoNewPrivileges=yes
ProtectSystem=strict
ReadWritePaths=$STATE
ProtectHome=yes
PrivateTmp=yes
PrivateDevices=yes
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
RestrictSUIDSGID=yes
RestrictRealtime=yes
RestrictNamespaces=yes
LockPersonality=yes
SystemCallArchitectures=native
CapabilityBoundingSet=
AmbientCapabilities=
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6

[Install]
WantedBy=multi-user.target
UNIT
chmod 0644 "$UNIT_FILE.part"
mv -f "$UNIT_FILE.part" "$UNIT_FILE"
say "wrote $UNIT_FILE"
film_rdp

if [ "$START" = 0 ]; then
  say "not started (--no-start): systemctl daemon-reload && systemctl enable --now $UNIT_NAME"
  exit 0
fi
systemctl daemon-reload
systemctl enable --now "$UNIT_NAME"
if [ "$UPGRADE" = 1 ]; then
  systemctl restart "$UNIT_NAME"
  say "upgraded to $GATEHOUSE_AGENT_VERSION and restarted $UNIT_NAME"
else
  say "installed $GATEHOUSE_AGENT_VERSION and started $UNIT_NAME"
fi
say "status: systemctl status $UNIT_NAME; logs: journalctl -u $UNIT_NAME"
}

main "$@"

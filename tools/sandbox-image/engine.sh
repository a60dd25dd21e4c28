#!/usr/bin/env bash
# Starts a private Docker engine for Kiln's tests and `npm run bench sandbox` when none answers at
# $KILN_DOCKER_DIR/docker.sock (default /tmp/kiln-docker): its own data root, no bridge and no
# iptables (sandboxes have no network), and gVisor's runsc as a runtime. Prints the DOCKER_HOST.
# Safe to run from several processes at once (flock). Needs root, dockerd (docker.io) and runsc.
set -euo pipefail
dir="${KILN_DOCKER_DIR:-/tmp/kiln-docker}"
sock="$dir/docker.sock"
mkdir -p "$dir"
exec 9>"$dir/start.lock"
flock 9
answers() { curl -sf --unix-socket "$sock" http://engine/_ping >/dev/null 2>&1; }
if ! answers; then
  command -v dockerd >/dev/null || { echo "engine.sh: dockerd is not installed (apt-get install docker.io)" >&2; exit 2; }
  runsc_path="$(command -v runsc || true)"
  [ -n "$runsc_path" ] || { echo "engine.sh: runsc is not installed (apt-get install runsc)" >&2; exit 2; }
  # host-uds=all: a dev server's socket, made inside gVisor on the mounted folder, is a real socket
  # Kiln can connect to. network=none: gVisor gives the sandbox no network stack of the host's.
  cat > "$dir/daemon.json" <<JSON
{ "runtimes": { "runsc": { "path": "$runsc_path", "runtimeArgs": ["--network=none", "--host-uds=all"] } } }
JSON
  rm -f "$sock" "$dir/dockerd.pid"
  nohup dockerd --data-root "$dir/root" --exec-root "$dir/exec" --pidfile "$dir/dockerd.pid" \
    --host "unix://$sock" --bridge=none --iptables=false --ip-masq=false --config-file "$dir/daemon.json" \
    >"$dir/dockerd.log" 2>&1 9>&- &
  for _ in $(seq 1 150); do answers && break; sleep 0.2; done
  answers || { echo "engine.sh: dockerd did not start; its log:" >&2; tail -n 20 "$dir/dockerd.log" >&2; exit 1; }
fi
echo "unix://$sock"

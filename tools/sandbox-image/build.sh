#!/usr/bin/env bash
# Builds Kiln's sandbox image from tools/sandbox-image/recipe and imports it into the Docker engine
# at $DOCKER_HOST as $1 (e.g. kiln-sandbox:<version>). Run by ContainerSandboxHost when the tag is
# missing; an operator may run it by hand and push the result to a registry (SANDBOX_IMAGE).
set -euo pipefail
tag="${1:?usage: build.sh <image:tag>}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT

libs_of() { # the shared libraries a program loads (none for a script)
  { ldd "$1" 2>/dev/null || true; } | { grep -o '/[^ ]*' || true; }
}

copy_lib() {
  [ -e "$root$1" ] && return 0
  mkdir -p "$(dirname "$root$1")"
  cp -L "$1" "$root$1"
}

copy_file() { # a file (following links) to the same path under $root, with its libraries
  local src="$1" dest
  dest="$root$src"
  mkdir -p "$(dirname "$dest")"
  cp -L "$src" "$dest"
  for lib in $(libs_of "$src"); do copy_lib "$lib"; done
}

while read -r kind what; do
  case "$kind" in
    program)
      path="$(type -P "$what")" || { echo "build.sh: $what is not installed" >&2; exit 1; }
      copy_file "$path"
      # node is also named by the path the host resolves it to (process.execPath).
      real="$(readlink -f "$path")"; [ "$real" = "$path" ] || copy_file "$real"
      ;;
    package)
      dpkg -L "$what" >/dev/null || { echo "build.sh: Debian package $what is not installed" >&2; exit 1; }
      while read -r file; do
        case "$file" in
          */lib/*.so|*/lib/*.so.*|*/lib/*/*.so|*/lib/*/*.so.*|*/lib64/*) [ -f "$file" ] && copy_lib "$file" ;;
        esac
      done < <(dpkg -L "$what")
      ;;
    folder)
      mkdir -p "$root$(dirname "$what")"
      cp -a "$what" "$root$what"
      ;;
    ''|'#'*) ;;
    *) echo "build.sh: unknown recipe line: $kind $what" >&2; exit 1 ;;
  esac
done < "$here/recipe"
# git's helpers are programs too: their libraries.
for helper in "$root"/usr/lib/git-core/*; do
  [ -f "$helper" ] && [ -x "$helper" ] || continue
  for lib in $(libs_of "$helper"); do copy_lib "$lib"; done
done
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/bin/npx"
# Debian's /bin, /lib and /lib64 are links into /usr; the libraries may have been named either way.
for top in bin lib lib64 sbin; do
  if [ -d "$root/$top" ] && [ ! -L "$root/$top" ]; then mkdir -p "$root/usr/$top"; cp -a "$root/$top/." "$root/usr/$top/"; rm -rf "${root:?}/$top"; fi
  [ -e "$root/usr/$top" ] && ln -s "usr/$top" "$root/$top"
done
mkdir -p "$root/kiln" "$root/etc" "$root/tmp" "$root/proc" "$root/dev" "$root/sys"
chmod 1777 "$root/tmp"
cp "$here/sandbox-supervisor.mjs" "$root/kiln/sandbox-supervisor.mjs"
printf 'root:x:0:0::/root:/bin/sh\nsandbox:x:10001:0:Kiln sandbox:/tmp:/bin/sh\n' > "$root/etc/passwd"
printf 'root:x:0:\n' > "$root/etc/group"
printf 'hosts: files\n' > "$root/etc/nsswitch.conf"
printf '127.0.0.1 localhost\n::1 localhost\n' > "$root/etc/hosts"
tar -C "$root" --numeric-owner -c . | docker import \
  --change 'USER 10001:0' --change 'WORKDIR /tmp' --change 'ENV HOME=/tmp PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8' \
  --change 'LABEL kiln.image=sandbox' - "$tag" >/dev/null
echo "$tag"

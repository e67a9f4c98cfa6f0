# Sourced by scripts/setup and scripts/test: installs the Debian packages
# photonsim needs when any is missing (non-interactive apt-get).
PHOTONSIM_PACKAGES=(
  cmake ninja-build g++ pkg-config
  coinor-libclp-dev
  libboost-graph-dev libboost-program-options-dev
  libyaml-cpp-dev
  libprotobuf-dev protobuf-compiler
  libgtest-dev libgmock-dev libbenchmark-dev
)

photonsim_install_deps() {
  local missing=()
  for p in "${PHOTONSIM_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    return 0
  fi
  echo "photonsim: installing ${missing[*]}" >&2
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "photonsim: missing packages (${missing[*]}) and not root; install them with apt-get" >&2
      return 1
    fi
  fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 &&
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

photonsim_generator() {
  if command -v ninja >/dev/null 2>&1; then echo "-G Ninja"; fi
}

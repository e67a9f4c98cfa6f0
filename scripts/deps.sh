# Sourced by scripts/setup and scripts/test: installs the Debian packages
# photonsim needs when any is missing (non-interactive apt-get).
PHOTONSIM_PACKAGES=(
  cmake ninja-build g++ pkg-config
  coinor-libclp-dev coinor-libcbc-dev
  libboost-graph-dev libboost-program-options-dev
  libyaml-cpp-dev
  libprotobuf-dev protobuf-compiler
  libgtest-dev libgmock-dev libbenchmark-dev
  openmpi-bin libopenmpi-dev
)

# Packages the plotting scripts need (Debian's Python, not pip).
PHOTONSIM_PLOT_PACKAGES=(python3 python3-matplotlib python3-numpy)

photonsim_install_deps() {
  photonsim_install_packages "${PHOTONSIM_PACKAGES[@]}"
}

# Installs whichever of the given Debian packages are missing.
photonsim_install_packages() {
  local missing=()
  for p in "$@"; do
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

# Prints an interpreter that imports matplotlib and numpy: Debian's
# /usr/bin/python3 (a pyenv python3 on PATH does not see Debian's packages),
# installing python3-matplotlib and python3-numpy first when they are missing.
photonsim_plot_python() {
  local py
  for py in /usr/bin/python3 "$(command -v python3 2>/dev/null)"; do
    if [ -n "$py" ] && [ -x "$py" ] && "$py" -c 'import matplotlib, numpy' 2>/dev/null; then
      echo "$py"
      return 0
    fi
  done
  photonsim_install_packages "${PHOTONSIM_PLOT_PACKAGES[@]}" || return 1
  if /usr/bin/python3 -c 'import matplotlib, numpy' 2>/dev/null; then
    echo /usr/bin/python3
    return 0
  fi
  echo "photonsim: no Python 3 with matplotlib and numpy; install: apt-get install ${PHOTONSIM_PLOT_PACKAGES[*]}" >&2
  return 1
}

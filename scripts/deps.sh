# Sourced by scripts/setup and scripts/test: installs the Debian packages
# photonsim needs when any is missing (non-interactive apt-get). They are the
# only scripts that install anything: the others (reproductions, plots) find
# what setup installed and, when it is missing, say to run scripts/setup.
PHOTONSIM_PACKAGES=(
  cmake ninja-build g++ pkg-config
  coinor-libclp-dev coinor-libcbc-dev
  libboost-graph-dev libboost-program-options-dev
  libyaml-cpp-dev
  libprotobuf-dev protobuf-compiler
  libgtest-dev libgmock-dev libbenchmark-dev
  openmpi-bin libopenmpi-dev
  ccache universal-ctags
)

# Packages the plotting scripts need (Debian's Python, not pip).
PHOTONSIM_PLOT_PACKAGES=(python3 python3-matplotlib python3-numpy python3-pandas)
# The Python package (python/photonsim: pybind11 module, pandas results,
# pytest tests) on top of the plotting packages.
PHOTONSIM_PYTHON_PACKAGES=("${PHOTONSIM_PLOT_PACKAGES[@]}" python3-dev pybind11-dev python3-pytest)

photonsim_install_deps() {
  photonsim_install_packages "${PHOTONSIM_PACKAGES[@]}" "${PHOTONSIM_PYTHON_PACKAGES[@]}"
}

# Sets PHOTONSIM_CACHE_ARGS to the configure arguments that compile through
# ccache, when it is installed (none otherwise): paths below this checkout
# are hashed relative to it and the working folder is not hashed, so another
# checkout's objects serve this one (a fresh clone builds from the cache).
photonsim_compiler_cache() {
  PHOTONSIM_CACHE_ARGS=()
  command -v ccache >/dev/null 2>&1 || return 0
  local launcher
  launcher="$(command -v cmake);-E;env;CCACHE_BASEDIR=$PWD;CCACHE_NOHASHDIR=true;$(command -v ccache)"
  PHOTONSIM_CACHE_ARGS=("-DCMAKE_CXX_COMPILER_LAUNCHER=$launcher" "-DCMAKE_C_COMPILER_LAUNCHER=$launcher")
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
  # Another apt (unattended upgrades, a second terminal) may hold the lock:
  # wait up to 10 minutes for it rather than fail.
  local wait=(-o DPkg::Lock::Timeout=600)
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get "${wait[@]}" update -qq >&2 &&
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get "${wait[@]}" install -y -qq --no-install-recommends \
      "${missing[@]}" >&2
}

# Puts DIR (build/python) on /usr/bin/python3's path with a photonsim.pth in
# its site-packages (root), else in the user's site-packages: the default
# outside every checkout, saying so when it replaces another checkout's.
photonsim_install_python_path() {
  local dir="$1" py=/usr/bin/python3 site
  [ -x "$py" ] || { echo "photonsim: no /usr/bin/python3; the Python package is in $dir (add it to PYTHONPATH)" >&2; return 0; }
  for site in "$("$py" -c 'import site; print(site.getsitepackages()[0])')" \
              "$("$py" -c 'import site; print(site.getusersitepackages())')"; do
    local before=""
    [ -f "$site/photonsim.pth" ] && before="$(cat "$site/photonsim.pth" 2>/dev/null)"
    if mkdir -p "$site" 2>/dev/null && printf '%s\n' "$dir" >"$site/photonsim.pth.tmp" 2>/dev/null; then
      # Never silently: another checkout's build was the default outside every checkout (inside one, import
      # photonsim loads that checkout's own build: python/photonsim/_checkout.py).
      if [ -n "$before" ] && [ "$before" != "$dir" ]; then
        echo "photonsim: $site/photonsim.pth named $before; it now names $dir, the build /usr/bin/python3" \
          "imports outside every checkout (inside a checkout it imports that checkout's build)" >&2
      fi
      mv "$site/photonsim.pth.tmp" "$site/photonsim.pth"
      if "$py" -c 'import photonsim, photonsim._photonsim' 2>/dev/null; then
        echo "photonsim: /usr/bin/python3 imports photonsim from $dir ($site/photonsim.pth)" >&2
        return 0
      fi
    fi
  done
  echo "photonsim: could not put $dir on /usr/bin/python3's path; set PYTHONPATH=$dir" >&2
  return 1
}

photonsim_generator() {
  if command -v ninja >/dev/null 2>&1; then echo "-G Ninja"; fi
}

# Prints an interpreter that imports matplotlib and numpy: Debian's
# /usr/bin/python3 (a pyenv python3 on PATH does not see Debian's packages).
# Installs nothing: when none has them, says to run scripts/setup.
photonsim_plot_python() {
  local py
  for py in /usr/bin/python3 "$(command -v python3 2>/dev/null)"; do
    if [ -n "$py" ] && [ -x "$py" ] && "$py" -c 'import matplotlib, numpy' 2>/dev/null; then
      echo "$py"
      return 0
    fi
  done
  echo "photonsim: no Python 3 with matplotlib and numpy; run scripts/setup (it installs ${PHOTONSIM_PLOT_PACKAGES[*]})" >&2
  return 1
}

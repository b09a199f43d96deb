"""The tests run against the package as installed, not the source tree:
with MANCALA_INSTALLED_WHEEL set (.ci/run sets it after installing the
built wheel into a fresh virtual environment, with no Rust toolchain on
the PATH), the package must come from that environment's site-packages,
the native module from the wheel, and no Rust toolchain be reachable."""

import os
import shutil
import sys
import sysconfig

import pytest

import mancala_solver as ms

pytestmark = pytest.mark.skipif(
    not os.environ.get("MANCALA_INSTALLED_WHEEL"), reason="set by .ci/run for the installed wheel"
)


def test_the_package_is_the_installed_wheel():
    site = os.path.realpath(sysconfig.get_paths()["purelib"])
    here = os.path.realpath(ms.__file__)
    assert here.startswith(site + os.sep), f"{here} is not in {site}"
    native = os.path.realpath(ms._native.__file__)
    assert native.startswith(site + os.sep) and native.endswith(".abi3.so"), native
    # Installed from a wheel (its RECORD lists the native module), not
    # built in place by a source install.
    dist = [d for d in os.listdir(site) if d.startswith("mancala_solver-") and d.endswith(".dist-info")]
    assert len(dist) == 1, dist
    record = open(os.path.join(site, dist[0], "RECORD"), encoding="utf-8").read()
    assert "mancala_solver/_native.abi3.so" in record
    assert sys.prefix != sys.base_prefix, "not in a virtual environment"


def test_no_rust_toolchain_is_on_the_path():
    for tool in ("cargo", "rustc", "rustup"):
        assert shutil.which(tool) is None, f"{tool} is on the PATH: {shutil.which(tool)}"

"""Builds the compiled rules kernel (funkoverse.rules._kernel); everything else is in
pyproject.toml. The kernel is optional: where it cannot be built, the Python engine plays."""

import sys
from glob import glob
from pathlib import Path

from pybind11.setup_helpers import Pybind11Extension, build_ext
from setuptools import setup

# The kernel's header of what it shares with the Python rules, written from their schema
# (funkoverse/rules/core/schema.py) before anything is compiled.
sys.path.insert(0, str(Path(__file__).parent / "src"))
from funkoverse.rules.core.schema import write_header

write_header(Path(__file__).parent / "src" / "funkoverse" / "rules" / "kernel")

kernel = Pybind11Extension(
    "funkoverse.rules._kernel",
    sorted(glob("src/funkoverse/rules/kernel/*.cpp")),
    depends=sorted(glob("src/funkoverse/rules/kernel/*.hpp")),
    cxx_std=17,
    extra_compile_args=["-O2", "-ffp-contract=off"],
    optional=True,
)

setup(ext_modules=[kernel], cmdclass={"build_ext": build_ext})

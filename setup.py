"""Builds the compiled rules kernel (funkoverse.rules._kernel); everything else is in
pyproject.toml. The kernel is optional: where it cannot be built, the Python engine plays."""

from glob import glob

from pybind11.setup_helpers import Pybind11Extension, build_ext
from setuptools import setup

kernel = Pybind11Extension(
    "funkoverse.rules._kernel",
    sorted(glob("src/funkoverse/rules/kernel/*.cpp")),
    depends=sorted(glob("src/funkoverse/rules/kernel/*.hpp")),
    cxx_std=17,
    extra_compile_args=["-O2", "-ffp-contract=off"],
    optional=True,
)

setup(ext_modules=[kernel], cmdclass={"build_ext": build_ext})

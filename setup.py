"""The C core of the exact solver; everything else is in pyproject.toml. optional=True: without
a compiler the install still works and the solver runs in Python."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("spaghetti.solver._csearch", ["src/spaghetti/solver/_csearch.c"],
                             optional=True, extra_compile_args=["-O2"])])

"""Only what pyproject.toml cannot say: ship pypto_stubs_dmypy.pth at the root of site-packages
(see mypy_plugin/_dmypy_codes.py: it lets dmypy accept pypto-* codes in its options)."""

from __future__ import annotations

import os

from setuptools import setup
from setuptools.command.build_py import build_py

PTH = "pypto_stubs_dmypy.pth"


class BuildPyWithPth(build_py):
    def run(self) -> None:
        super().run()
        self.copy_file(PTH, os.path.join(self.build_lib, PTH))

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        return [*super().get_outputs(include_bytecode), os.path.join(self.build_lib, PTH)]


setup(cmdclass={"build_py": BuildPyWithPth})

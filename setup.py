"""Only what pyproject.toml cannot say: ship pypto_stubs_dmypy.pth at the root of site-packages
(see mypy_plugin/_dmypy_codes.py: it lets dmypy accept pypto-* codes in its options), and
docs/codes.md beside the language server (the page its diagnostics' codes link to)."""

from __future__ import annotations

import os

from setuptools import setup
from setuptools.command.build_py import build_py

PTH = "pypto_stubs_dmypy.pth"
CODES_DOC = os.path.join("docs", "codes.md")
CODES_DOC_SHIPPED = os.path.join("mypy_plugin", "lsp", "codes.md")


class BuildPyWithPth(build_py):
    def run(self) -> None:
        super().run()
        self.copy_file(PTH, os.path.join(self.build_lib, PTH))
        if os.path.isfile(CODES_DOC):
            self.copy_file(CODES_DOC, os.path.join(self.build_lib, CODES_DOC_SHIPPED))

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        shipped = [os.path.join(self.build_lib, CODES_DOC_SHIPPED)] if os.path.isfile(CODES_DOC) else []
        return [*super().get_outputs(include_bytecode), os.path.join(self.build_lib, PTH), *shipped]


setup(cmdclass={"build_py": BuildPyWithPth})

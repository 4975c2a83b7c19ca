"""Kernel and helper bodies traced over Python's ``ast`` with the op table, as PyPTO's frontend
traces them: no mypy. For bodies mypy cannot check again in the module being checked (a helper
or kernel of another module, whose body an incremental or daemon run does not load), read from
their source through :mod:`..calls.module_sources`.

Values (:mod:`.values`), a module's top-level names (:mod:`.modules`), one call's arguments as
the op table's ``Args`` (:mod:`.arguments`), expressions (:mod:`.expressions`), statements and
their control flow (:mod:`.statements`), and the entry point with its memo (:mod:`.run`).
Everything unknown stays unknown: a check that lacks a fact stays silent.
"""

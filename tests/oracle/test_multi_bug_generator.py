"""The multi-bug generator without the compiler: sites keep lines in place, one site per step."""

from __future__ import annotations

import pytest

from . import multi_bug

# A long run (generates and checks many multi-bug kernels): not in the default `pytest`; `.ci/run` runs it.
pytestmark = pytest.mark.slow


def test_variants_replace_statements_one_for_one() -> None:
    for case in multi_bug.generate(30, seed=3):
        base = case.base.render().splitlines()
        merged = case.merged().render().splitlines()
        assert len(base) == len(merged)
        changed = [i for i, (a, b) in enumerate(zip(base, merged)) if a != b]
        assert len(changed) == len(case.sites) >= 2
        for single, site in zip(case.singles(), case.sites):
            lines = single.render().splitlines()
            assert [i for i, (a, b) in enumerate(zip(base, lines)) if a != b] == [single.def_line + site.index]
            assert lines[single.def_line + site.index].strip() == site.bad


def test_a_step_gives_at_most_one_site() -> None:
    """A sum turned mean has no sum left for a short tile to break: such sites are not independent."""
    for case in multi_bug.generate(60, seed=4):
        steps = [_step_of(case, s.index) for s in case.sites]
        assert len(steps) == len(set(steps))


def _step_of(case: multi_bug.MultiCase, index: int) -> int:
    """Steps start at a statement binding t<i>'s inputs: the step number is the last digit run."""
    import re

    src = case.base.body[index][1]
    found = re.findall(r"\b[rtc](\d+)\b", src)
    return int(found[0]) if found else int(re.findall(r"\b[rtc](\d+)\b", case.base.body[index + 1][1])[0])

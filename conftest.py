"""Names every doctest in src/ and the docs may use without importing them."""

import pytest

import conquian

# Importing __main__ would run the command line.
collect_ignore = ["src/conquian/__main__.py"]


@pytest.fixture(autouse=True)
def _doctest_names(doctest_namespace: dict[str, object]) -> None:
    doctest_namespace.update({name: getattr(conquian, name) for name in conquian.__all__})
    doctest_namespace["conquian"] = conquian

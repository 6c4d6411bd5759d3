"""Names every doctest in src/ and the docs may use without importing them."""

import pytest

import conquian


@pytest.fixture(autouse=True)
def _doctest_names(doctest_namespace: dict[str, object]) -> None:
    doctest_namespace.update({name: getattr(conquian, name) for name in conquian.__all__})
    doctest_namespace["conquian"] = conquian

"""What the wheel carries: the code, and templates/, static/, seeds/ and the compiled translations.

In a checkout templates/, static/ and seeds/ sit beside config/; an installed package must find
them wherever it is, so the wheel maps them inside ``config`` (config/templates/…), where the
settings look first (config/settings.py, ``shipped``). Everything else is in pyproject.toml.
"""

from setuptools import find_packages, setup

DATA = {"config.templates": "templates", "config.static": "static", "config.seeds": "seeds"}

setup(
    packages=[*find_packages(include=["config*", "apps*"]), *DATA],
    package_dir=DATA,
    package_data={
        "config": ["locale/*/LC_MESSAGES/*.mo"],
        **{package: ["**/*"] for package in DATA},
    },
)

"""The compiled parts of meeple; everything else is declared in pyproject.toml.

The observation encoders' compiled writers (``meeple.adapters.encoders._fast_*``) are
optional: without a C compiler the install goes on and the encoders use their Python path
(``MEEPLE_NO_EXT=1`` chooses that path on purpose; see docs/research.md).
"""

from Cython.Build import cythonize
from setuptools import Extension, setup

EXTENSIONS = [
    Extension(
        "meeple.adapters.encoders._fast_maatatahay",
        ["src/meeple/adapters/encoders/_fast_maatatahay.pyx"],
        optional=True,
    ),
    Extension(
        "meeple.adapters.encoders._fast_manafields",
        ["src/meeple/adapters/encoders/_fast_manafields.pyx"],
        optional=True,
    ),
    Extension(
        "meeple.adapters.encoders._fast_mask",
        ["src/meeple/adapters/encoders/_fast_mask.pyx"],
        optional=True,
    ),
]

setup(ext_modules=cythonize(EXTENSIONS, language_level=3, quiet=True))

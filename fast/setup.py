"""The compiled writers of meeple-fast (the only part of meeple that needs a C compiler).

``pip install ./fast`` builds them; meeple's tensor writers use them where they import
(``meeple.core.tensor.compiled_module``), and ``MEEPLE_NO_EXT=1`` sets them aside.
"""

from Cython.Build import cythonize
from setuptools import Extension, setup

EXTENSIONS = [
    Extension(f"meeple_fast.{name}", [f"src/meeple_fast/{name}.pyx"])
    for name in ("maatatahay", "manafields", "mask")
]

setup(ext_modules=cythonize(EXTENSIONS, language_level=3, quiet=True))

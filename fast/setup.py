"""The compiled writer of meeple-fast (the only part of meeple that needs a C compiler).

``pip install ./fast`` builds it; meeple's Maatatahay tensor writer uses it where it imports
(``meeple.core.tensor.compiled_module``), and ``MEEPLE_NO_EXT=1`` sets it aside.
"""

from Cython.Build import cythonize
from setuptools import Extension, setup

EXTENSIONS = [Extension("meeple_fast.maatatahay", ["src/meeple_fast/maatatahay.pyx"])]

setup(ext_modules=cythonize(EXTENSIONS, language_level=3, quiet=True))

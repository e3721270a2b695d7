"""A compiled observation tensor writer for meeple (``pip install ./fast``).

``maatatahay`` writes the vector of meeple's Python Maatatahay writer
(``meeple.games.maatatahay.tensor``), float for float, from the offsets and tables that writer
hands it. meeple uses it where it is installed and its Python path otherwise;
``MEEPLE_NO_EXT=1`` chooses the Python path. It reads the state through its attributes and
writes through the buffer protocol: public C APIs only. It is the one compiled writer that
earned its place end to end (see meeple's docs/research.md, "Compiled or pure Python").
"""

"""Compiled observation tensor writers for meeple (``pip install ./fast``).

Each module writes the vector of one of meeple's Python tensor writers, float for float, from
the offsets and tables that writer hands it: ``maatatahay`` and ``manafields`` (the games'
observation vectors) and ``mask`` (action masks). meeple uses them where they are installed
and its Python path otherwise; ``MEEPLE_NO_EXT=1`` chooses the Python path. They read the
state through its attributes and write through the buffer protocol: public C APIs only.
"""

"""Research adapters: OpenSpiel, PettingZoo and Gymnasium faces of every registered game.

Optional extras (``pip install meeple[openspiel]``, ``meeple[pettingzoo]``,
``meeple[gymnasium]``); import the submodule you need. Nothing else in meeple imports this
package except the ``export-trajectories`` command, which loads it lazily.
"""

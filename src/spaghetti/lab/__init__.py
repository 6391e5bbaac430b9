"""The lab: experiments answered in numbers with intervals, tables and plots.

:mod:`.experiment` says what to play, :mod:`.runner` plays it (a process pool, saving every game
so a run resumes), :mod:`.measures` computes seat advantage, endings, length, card strength and
A/B differences, each with its 95 % interval, and :mod:`.report` writes Markdown with figures.
``spaghetti lab`` is its command (docs/lab/).
"""

from .experiment import Arm, Experiment, from_data, loads
from .measures import Difference, Mean, PairedDifference, Rate, summary
from .runner import play_one, run

__all__ = ["Arm", "Difference", "Experiment", "Mean", "PairedDifference", "Rate", "from_data",
           "loads", "play_one", "run", "summary"]

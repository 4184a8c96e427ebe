"""Model-versus-simulation validations: each runs packet-level simulations of a set-up and
compares them with an analytic model.

- `aimdlab.validation.response`: the AIMD family's response functions (window against
  loss-event rate) on a path with random loss.
- GAIMD's sending-rate formula (gaimd.txt §2.4, Fig. 2–5) is its paper's:
  `aimdlab.papers.gaimd.accuracy` (`aimdlab validate gaimd`).
"""

from . import response

__all__ = ["response"]

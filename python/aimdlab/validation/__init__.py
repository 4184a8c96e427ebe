"""Model-versus-simulation validations: each runs packet-level simulations of a paper's
set-up and compares them with the paper's analytic model.

- `aimdlab.validation.gaimd`: GAIMD's sending-rate formula (gaimd.txt §2.4, Fig. 2–5).
- `aimdlab.validation.response`: the AIMD family's response functions (window against
  loss-event rate) on a path with random loss.
"""

from . import gaimd, response

__all__ = ["gaimd", "response"]

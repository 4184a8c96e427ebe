"""Model-versus-simulation validations: each runs packet-level simulations of a paper's
set-up and compares them with the paper's analytic model.

- `aimdlab.validation.gaimd`: GAIMD's sending-rate formula (gaimd.txt §2.4, Fig. 2–5).
"""

from . import gaimd

__all__ = ["gaimd"]

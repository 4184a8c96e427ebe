"""Analytic models of the field as plain numpy functions; each docstring gives the paper
and equation it implements.

- `aimdlab.models.gaimd`: GAIMD's sending rate (gaimd.txt eq. 2–4), TCP-friendly α
  (eq. 6, 7) and the error-minimizing α (eq. 8).
- `aimdlab.models.tcp`: Mathis et al., Padhye et al., and TFRC's throughput equation
  (RFC 5348 §3.1).
"""

from . import gaimd, tcp

__all__ = ["gaimd", "tcp"]

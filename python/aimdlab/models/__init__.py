"""Analytic models of the field as plain numpy functions; each docstring gives the paper
and equation it implements.

- `aimdlab.models.gaimd`: GAIMD's sending rate (gaimd.txt eq. 2–4), TCP-friendly α
  (eq. 6, 7) and the error-minimizing α (eq. 8).
- `aimdlab.models.tcp`: Mathis et al., Padhye et al., and TFRC's throughput equation
  (RFC 5348 §3.1).
- `aimdlab.models.chiu_jain`: the synchronous feedback model (AIMD, GAIMD, MIMD, AIAD) and
  New-AIMD's two-flow model and cycle analysis.
- `aimdlab.models.mr_aimd`: MR-AIMD's window growth after a contention drop (eq. 3–5).
- `aimdlab.models.response`: response functions (window against loss rate) of Reno, CUBIC,
  HighSpeed TCP (RFC 3649), Scalable TCP (Kelly 2003), Veno, YeAH, H-TCP and BIC, and DCTCP's
  steady state.
"""

from . import chiu_jain, gaimd, mr_aimd, response, tcp

__all__ = ["chiu_jain", "gaimd", "mr_aimd", "response", "tcp"]

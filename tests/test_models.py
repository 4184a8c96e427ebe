"""The analytic models against values computed by hand and the papers' special cases."""

from __future__ import annotations

import math

import numpy as np
import pytest

from aimdlab.models import gaimd, tcp


def test_gaimd_one_half_reduces_to_padhye_term_by_term():
    p, rtt, t0, b = 0.02, 0.1, 0.4, 1
    td = rtt * math.sqrt(2 * b * p / 3)
    q = min(1.0, 3 * math.sqrt(3 * b * p / 8))
    to = t0 * q * p * (1 + 32 * p * p)
    assert gaimd.td_term(1.0, 0.5, p, rtt, b) == pytest.approx(td, rel=1e-12)
    assert gaimd.to_term(1.0, 0.5, p, t0, b) == pytest.approx(to, rel=1e-12)
    assert tcp.padhye_rate(p, rtt, t0, b) == pytest.approx(1 / (td + to), rel=1e-12)


def test_hand_computed_gaimd_rate():
    # α = 0.31, β = 7/8, p = 1 %, RTT = 100 ms, T0 = 400 ms, b = 1:
    # TD = 0.1·sqrt(0.0025/0.58125) = 0.0065583; Q = 3·sqrt(0.00234375/0.62) = 0.184452;
    # TO = 0.4·0.184452·0.01·1.0032 = 0.00074017; T = 1/0.0072985 = 137.02 packets/s.
    assert gaimd.sending_rate(0.31, 0.875, 0.01, 0.1, 0.4) == pytest.approx(137.02, rel=1e-3)


def test_tcp_friendly_curves():
    assert gaimd.tcp_friendly_alpha_td(0.5) == 1.0 and gaimd.tcp_friendly_alpha_to(0.5) == 1.0
    assert gaimd.tcp_friendly_alpha_to(0.875) == pytest.approx(0.3125)  # the paper's 0.31
    assert gaimd.tcp_friendly_alpha_td(0.875) == pytest.approx(0.2)
    # On each curve the matched term is equal to TCP's for every p.
    p = np.logspace(-4, -0.3, 50)
    a_td, a_to = gaimd.tcp_friendly_alpha_td(0.75), gaimd.tcp_friendly_alpha_to(0.75)
    assert np.allclose(gaimd.td_term(a_td, 0.75, p, 0.1), gaimd.td_term(1, 0.5, p, 0.1))
    assert np.allclose(gaimd.to_term(a_to, 0.75, p, 0.4), gaimd.to_term(1, 0.5, p, 0.4))


def test_normalized_rate_is_one_for_tcp_and_rises_with_alpha():
    p = np.array([0.001, 0.01, 0.1])
    assert np.allclose(gaimd.normalized_rate(1.0, 0.5, p), 1.0)
    assert np.all(gaimd.normalized_rate(0.5, 0.875, p) > gaimd.normalized_rate(0.31, 0.875, p))


def test_mathis_and_tfrc_by_hand():
    # 1000-byte segments, 100 ms, p = 1 %: 8000/0.1·1.2247/0.1 = 979,796 bit/s.
    assert tcp.mathis_rate_bps(1000, 0.1, 0.01) == pytest.approx(979_796, rel=1e-5)
    # TFRC, s = 1000 B, R = 100 ms, p = 1 %, t_RTO = 400 ms:
    # 0.1·sqrt(0.02/3) + 0.4·3·sqrt(0.00375)·0.01·1.0032 = 0.0081650 + 0.00073719 → 898,663 bit/s.
    assert tcp.tfrc_rate_bps(1000, 0.1, 0.01) == pytest.approx(898_663, rel=1e-4)


def test_error_integral_has_a_bottom_between_the_td_and_to_curves():
    # Fig. 9: E_β(α) has a well-defined minimum; for β = 7/8, T0 = 4 RTT it lies between the
    # TD (0.2) and TO (0.3125) curves and rises with the weight threshold at first.
    a10 = gaimd.tcp_friendly_alpha_error_min(0.875, 0.1)
    a30 = gaimd.tcp_friendly_alpha_error_min(0.875, 0.3)
    assert 0.2 < a10 < a30 < 0.3125
    errs = [gaimd.error_integral(a, 0.875, 0.3) for a in (0.1, a30, 0.6)]
    assert errs[1] < errs[0] and errs[1] < errs[2]
